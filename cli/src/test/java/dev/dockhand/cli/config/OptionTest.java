package dev.dockhand.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsFiles;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The option table is the one declaration of an option: these tests fail when an entry lacks what the command line,
 * the settings files, {@code dockhand config} or docs/options.md need from it.
 */
public class OptionTest {
    private static final Path OPTIONS_MD =
            Path.of("").toAbsolutePath().getParent().resolve("docs/options.md");
    private static final String KEYS_HEADING = "### Settings keys";

    @TempDir
    Path temp;

    @Test
    void everyOptionHasAFlagOrAKeyAndHelp() {
        List<String> incomplete = Option.all().stream()
                .filter(option -> (option.flag() == null && option.key == null) || option.help.isBlank())
                .map(option -> String.valueOf(option.names) + " " + option.key)
                .toList();

        assertEquals(List.of(), incomplete);
    }

    @Test
    void everyFlagAndKeyIsUnique() {
        List<String> flags =
                Option.all().stream().flatMap(option -> option.names.stream()).toList();
        List<String> keys = keys();

        assertEquals(flags.stream().distinct().toList(), flags);
        assertEquals(keys.stream().distinct().toList(), keys);
    }

    /** A key under a block's name would be read as the block: core's record and the table share the top level. */
    @Test
    void noKeyLivesUnderABlockOfTheSettingsRecord() {
        List<String> blocks = Arrays.stream(Settings.class.getRecordComponents())
                .map(RecordComponent::getName)
                .toList();

        List<String> clashes = keys().stream()
                .filter(key -> blocks.contains(key.split("\\.")[0]))
                .toList();

        assertEquals(List.of(), clashes);
    }

    @Test
    void aSettingsFileSetsEachKeyOfTheTable() throws Exception {
        Path file = Files.writeString(
                temp.resolve("settings.json"),
                """
                {"provider":"anthropic","model":"m","baseUrl":"http://x","apiKeyEnv":"KEY","approvalMode":"plan",
                 "maxTurns":7,"maxCost":2.5,"reasoningEffort":"high","pricing":{},
                 "sandbox":{"kind":"none","image":"img","network":"host","memory":"1g","cpus":1.5,"pids":64,
                            "env":["A"]},
                 "truncation":{"maxChars":500,"maxLines":50},
                 "compression":{"threshold":0.5,"contextWindow":4096},
                 "tools":{"allowed":["grep"],"core":["read_file"],"excluded":["web_fetch"]},
                 "webFetch":{"allowedHosts":["10.0.0.0/8"]}}
                """);
        Settings settings = SettingsFiles.read(file, Option.schema());

        List<Object> read = new ArrayList<>();
        for (Option<?> option : Option.all()) {
            if (option.key != null) {
                read.add(option.read(settings));
            }
        }

        assertEquals(
                List.of(
                        "anthropic",
                        Map.of(),
                        "m",
                        "http://x",
                        "KEY",
                        "plan",
                        7,
                        2.5,
                        "high",
                        "none",
                        "img",
                        "host",
                        "1g",
                        1.5,
                        64L,
                        List.of("A"),
                        500,
                        50,
                        0.5,
                        4096L,
                        List.of("grep"),
                        List.of("read_file"),
                        List.of("web_fetch"),
                        List.of("10.0.0.0/8")),
                read);
    }

    @Test
    void everyFlagIsInTheOptionsOfDocsOptionsMd() throws Exception {
        String options = section(Files.readString(OPTIONS_MD), "## Options");

        List<String> missing = Option.all().stream()
                .map(Option::flag)
                .filter(flag -> flag != null && !options.contains("`" + flag))
                .toList();

        assertEquals(List.of(), missing);
    }

    /**
     * The table of settings keys in docs/options.md is the table's keys, flags and help. Run this test with
     * {@code -Ddockhand.writeDocs=true} to write it after changing an option.
     */
    @Test
    void theSettingsKeysOfDocsOptionsMdAreTheTable() throws Exception {
        String doc = Files.readString(OPTIONS_MD);
        String expected = keysTable();
        String actual = table(doc, KEYS_HEADING);
        if (Boolean.getBoolean("dockhand.writeDocs") && !actual.isEmpty() && !actual.equals(expected)) {
            Files.writeString(OPTIONS_MD, doc.replace(actual, expected));
            actual = table(Files.readString(OPTIONS_MD), KEYS_HEADING);
        }

        assertEquals(expected, actual, "run OptionTest with -Ddockhand.writeDocs=true to write docs/options.md");
    }

    private static String keysTable() {
        StringBuilder table = new StringBuilder("| key | option | meaning |\n| --- | --- | --- |\n");
        for (Option<?> option : Option.all()) {
            if (option.key != null) {
                String help = option.help.replace("${DEFAULT-VALUE}", String.valueOf(option.defaultValue));
                table.append("| `")
                        .append(option.key)
                        .append("` | ")
                        .append(option.flag() == null ? "" : "`" + option.flag() + "`")
                        .append(" | ")
                        .append(help.replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        return table.toString();
    }

    /** The lines after {@code heading}'s line up to the next heading, trimmed of blank lines around them. */
    private static String section(String doc, String heading) {
        List<String> lines = doc.lines().toList();
        int start = lines.indexOf(heading) + 1;
        if (start == 0) {
            return "";
        }
        int end = start;
        while (end < lines.size() && !lines.get(end).startsWith("#")) {
            end++;
        }
        return lines.subList(start, end).stream()
                        .collect(Collectors.joining("\n"))
                        .strip() + "\n";
    }

    /** The first Markdown table after {@code heading}'s line, each line ending in a newline. */
    private static String table(String doc, String heading) {
        List<String> lines = doc.lines().toList();
        int start = lines.indexOf(heading);
        if (start < 0) {
            return "";
        }
        while (start < lines.size() && !lines.get(start).startsWith("|")) {
            start++;
        }
        int end = start;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        return lines.subList(start, end).stream().map(line -> line + "\n").collect(Collectors.joining());
    }

    private static List<String> keys() {
        return Option.all().stream()
                .filter(option -> option.key != null)
                .map(option -> option.key)
                .toList();
    }
}
