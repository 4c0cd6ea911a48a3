package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.tool.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How a run reports and is bounded: its output format, the tools it offers ({@code --tools}, {@code
 * --excluded-tools}) and lets run without a question ({@code --allowed-tools}), its time and tool-call limits, and the
 * Markdown summary it writes at the end ({@code --summary-file}).
 */
public record Headless(
        Format format,
        List<String> allowedTools,
        List<String> offeredTools,
        List<String> excludedTools,
        Optional<Duration> maxWallTime,
        OptionalInt maxToolCalls,
        Optional<java.nio.file.Path> summaryFile) {
    /**
     * The list of tools to offer that offers none: what an untrusted project's {@code tools.core} leaves when it
     * shares no tool with the user's list (an empty list offers every tool). No tool can have this name.
     */
    static final String NO_TOOLS = "(none)";

    public static final Headless DEFAULT = new Headless(
            Format.TEXT, List.of(), List.of(), List.of(), Optional.empty(), OptionalInt.empty(), Optional.empty());

    /** What goes to stdout. */
    public enum Format {
        /** The model's answer as it streams. */
        TEXT,
        /** One JSON result object at the end. */
        JSON,
        /** One JSON object per line as things happen, the result last. */
        STREAM_JSON
    }

    static Headless from(OptionValues command) {
        Format format =
                switch (command.get(Option.OUTPUT_FORMAT).strip()) {
                    case "text" -> Format.TEXT;
                    case "json" -> Format.JSON;
                    case "stream-json" -> Format.STREAM_JSON;
                    default -> throw new DockhandException(
                            ExitCodes.USAGE,
                            "--output-format " + command.get(Option.OUTPUT_FORMAT)
                                    + " is not a format; use text, json or stream-json.");
                };
        Optional<Duration> wallTime = command.get(Option.MAX_WALL_TIME) == null
                ? Optional.empty()
                : Optional.of(ModelChoice.duration("--max-wall-time", command.get(Option.MAX_WALL_TIME)));
        if (command.get(Option.MAX_TOOL_CALLS) != null && command.get(Option.MAX_TOOL_CALLS) < 0) {
            throw new DockhandException(ExitCodes.USAGE, "--max-tool-calls must be 0 or more.");
        }
        OptionalInt toolCalls = command.get(Option.MAX_TOOL_CALLS) == null
                ? OptionalInt.empty()
                : OptionalInt.of(command.get(Option.MAX_TOOL_CALLS));
        return new Headless(
                format,
                rules(clean(command.get(Option.ALLOWED_TOOLS))),
                clean(command.get(Option.TOOLS)),
                clean(command.get(Option.EXCLUDED_TOOLS)),
                wallTime,
                toolCalls,
                Optional.ofNullable(command.get(Option.SUMMARY_FILE)).map(java.nio.file.Path::of));
    }

    private static List<String> clean(List<String> names) {
        return names.stream().map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    /**
     * The allowed tools, refusing permission rules with arguments ({@code run_shell_command(git status)}, Claude
     * Code's syntax) by name: Dockhand has no such rules yet, and reading one as a whole tool would allow far more
     * than the user wrote.
     */
    private static List<String> rules(List<String> names) {
        for (String name : names) {
            if (name.contains("(")) {
                String tool = name.substring(0, name.indexOf('(')).strip();
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "--allowed-tools " + name + ": rules with arguments are not supported yet; name the whole"
                                + " tool (" + tool + ") to let all its calls run without a question, or leave it"
                                + " out to be asked.");
            }
        }
        return names;
    }

    /**
     * The tools to offer, narrowed by --tools and --excluded-tools; an unknown name in any of the three lists is a
     * usage error.
     */
    public List<Tool<?>> select(List<Tool<?>> all) {
        return select(all, false);
    }

    /**
     * As {@link #select(List)}; with {@code lateTools} (MCP servers are configured, and their tools are not known
     * until they start), a name starting {@code mcp__} is taken on trust.
     */
    public List<Tool<?>> select(List<Tool<?>> all, boolean lateTools) {
        Set<String> known = all.stream().map(Tool::name).collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        for (List<String> names : List.of(allowedTools, offeredTools, excludedTools)) {
            for (String name : names) {
                if ((lateTools && name.startsWith("mcp__")) || name.equals(NO_TOOLS)) {
                    continue;
                }
                if (!known.contains(name) && !unknown.contains(name)) {
                    unknown.add(name);
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "Unknown tool " + String.join(", ", unknown) + "; the tools are "
                            + all.stream().map(Tool::name).collect(Collectors.joining(", ")) + ".");
        }
        List<Tool<?>> offered = all.stream()
                .filter(tool -> offeredTools.isEmpty() || offeredTools.contains(tool.name()))
                .filter(tool -> !excludedTools.contains(tool.name()))
                .toList();
        // kill_background stops what run_shell_command started: it comes and goes with it.
        boolean shell = offered.stream().anyMatch(tool -> tool.name().equals("run_shell_command"));
        return all.stream()
                .filter(tool -> tool.name().equals("kill_background")
                        ? shell && !excludedTools.contains(tool.name())
                        : offered.contains(tool))
                .toList();
    }

    /** Whether a tool that joins later (an MCP server's) is offered, by --tools and --excluded-tools. */
    public boolean offersLate(String name) {
        return (offeredTools.isEmpty() || offeredTools.contains(name)) && !excludedTools.contains(name);
    }

    /**
     * The tools of {@code all} not in {@code selected}, each with how the user kept it out, for the answer to a call
     * the model makes anyway.
     */
    public Map<String, String> withheld(List<Tool<?>> all, List<Tool<?>> selected) {
        Map<String, String> withheld = new LinkedHashMap<>();
        for (Tool<?> tool : all) {
            if (!selected.contains(tool)) {
                withheld.put(
                        tool.name(),
                        excludedTools.contains(tool.name())
                                ? "the user excluded it (--excluded-tools)"
                                : offeredTools.contains(NO_TOOLS)
                                        ? "this session offers no tools: the project's tools.core shares none with"
                                                + " the user's"
                                        : "the user left it out of this session's tools (--tools)");
            }
        }
        return withheld;
    }
}
