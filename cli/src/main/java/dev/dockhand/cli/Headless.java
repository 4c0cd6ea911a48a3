package dev.dockhand.cli;

import dev.dockhand.core.tool.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How an unattended run reports and is bounded: its output format, the tools it offers, its time and tool-call
 * limits.
 */
record Headless(
        Format format,
        List<String> allowedTools,
        List<String> excludedTools,
        Optional<Duration> maxWallTime,
        OptionalInt maxToolCalls) {
    static final Headless DEFAULT =
            new Headless(Format.TEXT, List.of(), List.of(), Optional.empty(), OptionalInt.empty());

    /** What goes to stdout. */
    enum Format {
        /** The model's answer as it streams. */
        TEXT,
        /** One JSON result object at the end. */
        JSON,
        /** One JSON object per line as things happen, the result last. */
        STREAM_JSON
    }

    static Headless from(DockhandCommand command) {
        Format format =
                switch (command.outputFormat.strip()) {
                    case "text" -> Format.TEXT;
                    case "json" -> Format.JSON;
                    case "stream-json" -> Format.STREAM_JSON;
                    default -> throw new DockhandException(
                            ExitCodes.USAGE,
                            "--output-format " + command.outputFormat
                                    + " is not a format; use text, json or stream-json.");
                };
        Optional<Duration> wallTime = command.maxWallTime == null
                ? Optional.empty()
                : Optional.of(ModelChoice.duration("--max-wall-time", command.maxWallTime));
        if (command.maxToolCalls != null && command.maxToolCalls < 0) {
            throw new DockhandException(ExitCodes.USAGE, "--max-tool-calls must be 0 or more.");
        }
        OptionalInt toolCalls =
                command.maxToolCalls == null ? OptionalInt.empty() : OptionalInt.of(command.maxToolCalls);
        return new Headless(format, clean(command.allowedTools), clean(command.excludedTools), wallTime, toolCalls);
    }

    private static List<String> clean(List<String> names) {
        return names.stream().map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    /** The tools to offer, narrowed by --allowed-tools and --excluded-tools; an unknown name is a usage error. */
    List<Tool<?>> select(List<Tool<?>> all) {
        Set<String> known = all.stream().map(Tool::name).collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        for (String name : allowedTools) {
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        for (String name : excludedTools) {
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "Unknown tool " + String.join(", ", unknown) + "; the tools are "
                            + all.stream().map(Tool::name).collect(Collectors.joining(", ")) + ".");
        }
        List<Tool<?>> offered = all.stream()
                .filter(tool -> allowedTools.isEmpty() || allowedTools.contains(tool.name()))
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
}
