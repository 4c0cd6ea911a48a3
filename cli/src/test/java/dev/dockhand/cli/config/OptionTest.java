package dev.dockhand.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.settings.Settings;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class OptionTest {
    /**
     * Keys only the user's own file sets, combined with flags by Configuration rather than layered; and the MCP
     * servers, a map of the user's and (in a trusted folder) the project's entries that McpSettings merges; and the
     * blocks each feature merges by its own rules (permission rules, hooks, checkpoints, redaction), since a project
     * may add to them but not always widen them.
     */
    private static final List<String> USER_ONLY_BLOCKS = List.of(
            "protectedPaths",
            "trustedFolders",
            "mcpServers",
            "checkpoints",
            "permissions",
            "hooks",
            "stopHookLimit",
            "redaction");

    @Test
    void everyKeyOfTheSettingsFileIsAnOptionOfTheTable() {
        List<String> fileKeys = new ArrayList<>();
        leaves(Settings.class, "", fileKeys);
        fileKeys.removeIf(key -> USER_ONLY_BLOCKS.stream().anyMatch(key::startsWith));

        List<String> tableKeys = Option.all().stream()
                .filter(option -> option.key != null)
                .map(option -> option.key)
                .sorted()
                .toList();

        assertEquals(fileKeys.stream().sorted().toList(), tableKeys);
    }

    @Test
    void eachOptionReadsItsOwnKeyFromASettingsFile() {
        Settings settings = new Settings(
                "anthropic",
                "m",
                "http://x",
                "KEY",
                "plan",
                7,
                new Settings.Sandbox("none", "img", "host", "1g", 1.5, 64L, List.of("A")),
                new Settings.Tools(List.of("grep"), List.of("web_fetch"), List.of("read_file")),
                new Settings.Truncation(500, 50),
                new Settings.Compression(0.5, 4096L),
                new Settings.WebFetch(List.of("10.0.0.0/8")),
                null,
                null,
                Map.of(),
                2.5,
                "high");

        List<Object> read = new ArrayList<>();
        for (Option<?> option : Option.all()) {
            if (option.key != null) {
                read.add(option.read(settings));
            }
        }

        assertEquals(
                List.of(
                        "anthropic",
                        "m",
                        "http://x",
                        "KEY",
                        "plan",
                        7,
                        2.5,
                        "high",
                        Map.of(),
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
    void everyFlagIsUnique() {
        List<String> flags =
                Option.all().stream().flatMap(option -> option.names.stream()).toList();

        assertEquals(flags.stream().distinct().toList(), flags);
    }

    private static void leaves(Class<?> type, String prefix, List<String> keys) {
        for (RecordComponent component : type.getRecordComponents()) {
            String key = prefix + component.getName();
            Class<?> value = component.getType();
            if (value.isRecord() && value.getEnclosingClass() == Settings.class) {
                leaves(value, key + ".", keys);
            } else {
                keys.add(key);
            }
        }
    }
}
