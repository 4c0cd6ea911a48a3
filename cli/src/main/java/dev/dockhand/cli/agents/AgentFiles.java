package dev.dockhand.cli.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.agent.AgentDefinition;
import dev.dockhand.core.agent.DataPolicy;
import dev.dockhand.core.agent.SubAgents;
import dev.dockhand.core.settings.FrontMatter;
import dev.dockhand.core.settings.FrontMatterException;
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
import java.util.function.Function;
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
     * The definitions with each model that {@code mismatch} says the session's provider cannot serve taken out (so the
     * agent works with the session's model), each said in one sentence. A definition file is often shared across
     * setups; the agent stays useful rather than failing on its first request.
     */
    public static Loaded forProvider(Loaded loaded, Function<String, Optional<String>> mismatch) {
        List<AgentDefinition> definitions = new ArrayList<>();
        List<String> problems = new ArrayList<>(loaded.problems());
        for (AgentDefinition definition : loaded.definitions()) {
            Optional<String> refused = definition.model().flatMap(mismatch);
            if (refused.isPresent()) {
                problems.add(SubAgents.modelNotServed(
                        definition.name(), definition.model().get(), refused.get()));
                definitions.add(definition.withModel(Optional.empty()));
            } else {
                definitions.add(definition);
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
        String content = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (!content.startsWith("---\n") && !content.startsWith("---\r\n")) {
            throw new IllegalArgumentException("it does not start with a --- line opening its YAML front matter");
        }
        try {
            FrontMatter front = FrontMatter.parse(content);
            for (Iterator<String> names = front.fields().fieldNames(); names.hasNext(); ) {
                String key = names.next();
                if (!KEYS.contains(key)) {
                    throw new IllegalArgumentException("its front matter has the unknown key \"" + key
                            + "\" (the keys are name, description, tools, model, max_turns and data_policy)");
                }
            }
            return new AgentDefinition(
                    front.text("name").orElse(null),
                    front.text("description").orElse(null),
                    front.fields().hasNonNull("tools") ? Optional.of(front.list("tools")) : Optional.empty(),
                    front.text("model"),
                    maxTurns(front.fields().get("max_turns")),
                    dataPolicy(front.fields().get("data_policy")),
                    front.body(),
                    source);
        } catch (FrontMatterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
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
}
