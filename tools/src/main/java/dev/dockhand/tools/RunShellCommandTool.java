package dev.dockhand.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.output.TruncatedOutput;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs {@code bash -c} in the sandbox with stdin closed; every process the command starts ends when it returns. The
 * result leads with the exit code and whether the command was killed, outside the output text, so truncating a long
 * output can never hide how the command ended; a notice from the sandbox (its container was replaced) comes before
 * even that, and under the user's one-line outcome. With {@code run_in_background} the command is started and the
 * call returns at once, naming the command's id and the file its output goes to, under the session's tool-output
 * folder, where {@code read_file} can read it.
 */
public final class RunShellCommandTool extends BaseTool<RunShellCommandTool.Params> {
    public static final String NAME = "run_shell_command";
    private static final String DESCRIPTION =
            "Run a bash command in the workspace and get its exit code and combined stdout/stderr. Use it to"
                    + " build, test, run git and other programs; prefer read_file and write_file for files. Every"
                    + " process the command starts is killed when it returns, unless run_in_background is set.";
    static final long DEFAULT_TIMEOUT_MS = 120_000;
    static final long MAX_TIMEOUT_MS = 600_000;
    /** The sub-folder of the session's tool outputs that holds background commands' output files. */
    static final String BACKGROUND_FOLDER = "background";

    /** The model's arguments. */
    public record Params(
            String command,
            String description,
            @JsonProperty("timeout_ms") Long timeoutMs,
            String directory,
            @JsonProperty("run_in_background") Boolean runInBackground) {

        /** A command run in the foreground. */
        public Params(String command, String description, Long timeoutMs, String directory) {
            this(command, description, timeoutMs, directory, null);
        }

        boolean inBackground() {
            return Boolean.TRUE.equals(runInBackground);
        }
    }

    private static final ObjectNode SCHEMA = Schema.object()
            .required(
                    "command",
                    Schema.string("The bash command to run. stdin is closed: commands must not wait for"
                            + " input (use flags like --yes)."))
            .optional("description", Schema.string("What the command does, in a few words, for the user."))
            .optional(
                    "timeout_ms",
                    Schema.integer(
                            "Kill the command after this many milliseconds. Default 120000, at most 600000. Not"
                                    + " with run_in_background.",
                            1,
                            MAX_TIMEOUT_MS))
            .optional(
                    "directory",
                    Schema.string("Folder to run in, relative to the workspace root. Default: the" + " root."))
            .optional(
                    "run_in_background",
                    Schema.bool("Start the command and return at once, for a server or watcher that must keep"
                            + " running (not for builds or tests: wait for those). The result names it (bg-1, ...)"
                            + " and the file its output goes to; stop it with kill_background. It is killed when the"
                            + " session ends."))
            .build();

    public RunShellCommandTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.EXECUTE, Params.class);
    }

    @Override
    public Optional<String> validate(Params params) {
        return params.command().isBlank() ? Optional.of("command is empty.") : Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return params.inBackground() ? params.command() + "  (in the background)" : params.command();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        Path directory;
        try {
            directory = context.workspace().resolve(params.directory() == null ? "." : params.directory());
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        }
        if (!Files.isDirectory(directory)) {
            return ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "No such folder: " + params.directory() + ".");
        }
        if (params.inBackground()) {
            return startInBackground(params.command(), directory, context);
        }
        Duration timeout = Duration.ofMillis(params.timeoutMs() == null ? DEFAULT_TIMEOUT_MS : params.timeoutMs());
        try (TruncatedOutput output = context.newOutput()) {
            ExecResult result;
            try {
                result = context.sandbox()
                        .exec(
                                new ExecRequest(params.command(), directory, timeout),
                                line -> {
                                    output.appendLine(line);
                                    context.output().line(line);
                                },
                                context.cancellation());
            } catch (IOException e) {
                return ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED, "The command could not be started: " + e.getMessage());
            }
            return result(result, timeout, output);
        }
    }

    private static ToolResult startInBackground(String command, Path directory, ToolContext context) {
        BackgroundProcess started;
        try {
            started = context.sandbox()
                    .start(command, directory, context.outputDir().resolve(BACKGROUND_FOLDER));
        } catch (IOException e) {
            return ToolResult.error(
                    ToolErrorType.EXECUTION_FAILED, "The command could not be started: " + e.getMessage());
        }
        return ToolResult.success(
                "Started in the background as " + started.id() + ". Its output goes to " + started.outputFile()
                        + "; read it with read_file. Stop it with kill_background; it is killed when the session"
                        + " ends.",
                "started " + started.id() + " in the background");
    }

    private static ToolResult result(ExecResult result, Duration timeout, TruncatedOutput output) {
        String status =
                switch (result.termination()) {
                    case EXITED -> "Exit code: " + result.exitCode();
                    case TIMED_OUT -> "Killed: the command ran longer than its time-out of " + timeout.toMillis()
                            + " ms. Run long jobs with a larger timeout_ms, or servers with run_in_background.";
                    case CANCELLED -> "Killed: the user cancelled the command.";
                    case OUT_OF_MEMORY -> "Killed: the command ran out of memory (over the sandbox's memory limit).";
                };
        String text = output.text();
        String notice = result.notice().map(sentence -> sentence + "\n").orElse("");
        String body = notice + status + "\nOutput:" + (text.isEmpty() ? " (none)" : "\n" + text);
        String outcome =
                switch (result.termination()) {
                    case EXITED -> "exit " + result.exitCode() + ", " + output.totalLines() + " lines";
                    case TIMED_OUT -> "timed out after " + timeout.toSeconds() + " s";
                    case CANCELLED -> "cancelled";
                    case OUT_OF_MEMORY -> "out of memory";
                };
        String display =
                outcome + result.notice().map(sentence -> "\n" + sentence).orElse("");
        return switch (result.termination()) {
            case EXITED -> result.exitCode() == 0
                    ? ToolResult.success(body, display)
                    : new ToolResult(body, display, Optional.of(ToolErrorType.EXECUTION_FAILED));
            case TIMED_OUT, OUT_OF_MEMORY -> new ToolResult(body, display, Optional.of(ToolErrorType.EXECUTION_FAILED));
            case CANCELLED -> new ToolResult(body, display, Optional.of(ToolErrorType.CANCELLED));
        };
    }
}
