package dev.dockhand.cli.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dockhand.core.agent.AgentDefinition;
import dev.dockhand.core.agent.DataPolicy;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Agent definitions from Markdown files: YAML front matter between two {@code ---} lines ({@code name},
 * {@code description}, {@code tools}, {@code model}, {@code max_turns}, {@code data_policy}), then the agent's
 * instructions. The files are someone else's text (a cloned repository's): a file that cannot be used is reported in
 * one sentence and skipped, and nothing in it can stop the run. The user's folder ({@code ~/.dockhand/agents}) comes
 * first, the project's ({@code .dockhand/agents}, read only in a trusted folder) second, so its agent of the same name
 * wins, as a project's settings do; either may replace a built-in agent.
 */
public final class AgentFiles {
    /** Larger files are not agent definitions, and are not read. */
    static final long MAX_BYTES = 64 * 1024;

    private static final Set<String> KEYS = Set.of("name", "description", "tools", "model", "max_turns", "data_policy");

    private AgentFiles() {}

    /** The definitions read, in order, and one sentence for each file skipped. */
    public record Loaded(List<AgentDefinition> definitions, List<String> problems) {}

    /**
     * The built-in agents, then those of {@code folders} in order (each folder's {@code *.md} files by name); a
     * missing folder has none.
     */
    public static Loaded load(List<Path> folders) {
        List<AgentDefinition> definitions = new ArrayList<>(AgentDefinition.builtIns());
        List<String> problems = new ArrayList<>();
        for (Path folder : folders) {
            for (Path file : files(folder, problems)) {
                try {
                    definitions.add(read(file));
                } catch (IllegalArgumentException e) {
                    // One line: the YAML reader's messages come in several, with a pointer under the column.
                    problems.add("skipped the agent file " + file + ": "
                            + e.getMessage().replaceAll("\\s+", " ").strip() + ".");
                }
            }
        }
        return new Loaded(List.copyOf(definitions), List.copyOf(problems));
    }

    /**
     * The project's folder of definitions: a widening setting (each agent runs tools in the user's name), read only
     * when the folder is trusted.
     */
    public static Path projectFolder(Path workingDirectory) {
        return workingDirectory.resolve(".dockhand").resolve("agents");
    }

    /** The user's own folder of definitions, {@code <settings home>/agents}. */
    public static Path userFolder(Path settingsHome) {
        return settingsHome.resolve("agents");
    }

    /** How many definition files {@code folder} holds; 0 when it cannot be listed. */
    public static int count(Path folder) {
        return files(folder, new ArrayList<>()).size();
    }

    private static List<Path> files(Path folder, List<String> problems) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> listed = Files.list(folder)) {
            return listed.filter(file -> file.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .toList();
        } catch (IOException | RuntimeException e) {
            problems.add("skipped the agent folder " + folder + ": it cannot be listed (" + e.getMessage() + ").");
            return List.of();
        }
    }

    /** One file's definition; an {@link IllegalArgumentException} says in a clause why it cannot be used. */
    static AgentDefinition read(Path file) {
        String text;
        try {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("it is not a regular file");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException("it is larger than " + MAX_BYTES / 1024 + " KiB");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw new IllegalArgumentException("it is not UTF-8 text", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("it cannot be read (" + e.getMessage() + ")", e);
        }
        return parse(text, file.toString());
    }

    /** The definition in {@code text}, from {@code source}. */
    static AgentDefinition parse(String text, String source) {
        String normalised = text.replace("\r\n", "\n");
        if (normalised.startsWith("\uFEFF")) {
            normalised = normalised.substring(1);
        }
        if (!normalised.startsWith("---\n")) {
            throw new IllegalArgumentException("it does not start with a --- line opening its YAML front matter");
        }
        int end = normalised.indexOf("\n---", 3);
        while (end >= 0 && !(normalised.startsWith("\n", end + 4) || end + 4 == normalised.length())) {
            end = normalised.indexOf("\n---", end + 1);
        }
        if (end < 0) {
            throw new IllegalArgumentException("its front matter has no closing --- line");
        }
        String front = normalised.substring(4, end + 1);
        String body = end + 5 > normalised.length() ? "" : normalised.substring(end + 5);
        JsonNode fields = yaml(front);
        for (Iterator<String> names = fields.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("its front matter has the unknown key \"" + key
                        + "\" (the keys are name, description, tools, model, max_turns and data_policy)");
            }
        }
        return new AgentDefinition(
                text(fields, "name").orElse(null),
                text(fields, "description").orElse(null),
                tools(fields.get("tools")),
                text(fields, "model"),
                maxTurns(fields.get("max_turns")),
                dataPolicy(fields.get("data_policy")),
                body,
                source);
    }

    private static JsonNode yaml(String front) {
        JsonNode fields;
        try {
            fields = Holder.YAML.readTree(front);
        } catch (IOException e) {
            throw new IllegalArgumentException("its front matter is not valid YAML (" + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            // SnakeYAML's own limits (nesting, aliases) and anything else it throws on hostile input.
            throw new IllegalArgumentException("its front matter cannot be read as YAML (" + e.getMessage() + ")", e);
        }
        if (fields == null || !fields.isObject()) {
            throw new IllegalArgumentException("its front matter is not a set of key: value lines");
        }
        return fields;
    }

    private static Optional<String> text(JsonNode fields, String key) {
        JsonNode value = fields.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("its " + key + " must be text");
        }
        return Optional.of(value.asText().strip()).filter(text -> !text.isEmpty());
    }

    /** A YAML list of names, or one line of names split by commas (as Claude Code's files write them). */
    private static Optional<List<String>> tools(JsonNode value) {
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        if (value.isTextual()) {
            for (String name : value.asText().split(",")) {
                if (!name.isBlank()) {
                    names.add(name.strip());
                }
            }
        } else if (value.isArray()) {
            for (JsonNode name : value) {
                if (!name.isTextual()) {
                    throw new IllegalArgumentException("its tools must be tool names");
                }
                names.add(name.asText().strip());
            }
        } else {
            throw new IllegalArgumentException("its tools must be a list of tool names");
        }
        return Optional.of(List.copyOf(names));
    }

    private static int maxTurns(JsonNode value) {
        if (value == null || value.isNull()) {
            return AgentDefinition.DEFAULT_MAX_TURNS;
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber()) {
            throw new IllegalArgumentException("its max_turns must be a whole number");
        }
        return value.asInt();
    }

    private static DataPolicy dataPolicy(JsonNode value) {
        if (value == null || value.isNull()) {
            return DataPolicy.FULL;
        }
        return DataPolicy.parse(value.asText())
                .orElseThrow(() -> new IllegalArgumentException(
                        "its data_policy must be full, summary or none, not \"" + value.asText() + "\""));
    }

    /** Built at the first file read: a session without agent files never loads the YAML reader. */
    private static final class Holder {
        private static final YAMLMapper YAML = new YAMLMapper();
    }
}
