package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Stops a command that {@code run_shell_command} started with {@code run_in_background}, and every process it
 * started. An id the session does not know gets the session's background commands listed, so the model needs no tool
 * of its own to list them.
 */
public final class KillBackgroundTool extends BaseTool<KillBackgroundTool.Params> {
    public static final String NAME = "kill_background";
    private static final String DESCRIPTION = "Stop a command started with run_shell_command's run_in_background, and"
            + " every process it started. Give the id its result named (bg-1, ...).";
    /** How much of a command or an unknown id is quoted back. */
    private static final int QUOTE_CHARS = 60;

    /** The model's arguments. */
    public record Params(String id) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("id", Schema.string("The background command's id, like bg-1."))
            .build();

    public KillBackgroundTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.EXECUTE, Params.class);
    }

    @Override
    public Optional<String> validate(Params params) {
        return params.id().isBlank() ? Optional.of("id is empty.") : Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return quote(params.id());
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        List<BackgroundProcess> all = context.sandbox().background();
        String id = params.id().strip();
        Optional<BackgroundProcess> found =
                all.stream().filter(process -> process.id().equals(id)).findFirst();
        if (found.isEmpty()) {
            return ToolResult.error(ToolErrorType.INVALID_PARAMS, unknown(id, all));
        }
        BackgroundProcess process = found.get();
        boolean hadEnded = process.result().isPresent();
        ExecResult ended = process.kill();
        String notice = ended.notice().map(sentence -> sentence + "\n").orElse("");
        String what = hadEnded
                ? id + " had already ended: it " + ending(ended) + "."
                : "Killed " + id + " and every process it started.";
        return ToolResult.success(
                notice + what + " Its output is in " + process.outputFile() + ".",
                (hadEnded ? "already ended: it " + ending(ended) : "killed")
                        + ended.notice().map(sentence -> "\n" + sentence).orElse(""));
    }

    private static String unknown(String id, List<BackgroundProcess> all) {
        String known = all.isEmpty()
                ? "None was started in this session."
                : "This session's: "
                        + all.stream()
                                .map(process -> process.id() + " (" + quote(process.command()) + "; "
                                        + process.result()
                                                .map(KillBackgroundTool::ending)
                                                .orElse("running") + ")")
                                .collect(Collectors.joining(", "))
                        + ".";
        return "There is no background command " + quote(id) + ". " + known;
    }

    /** How a background command ended, after "it". */
    private static String ending(ExecResult result) {
        return switch (result.termination()) {
            case EXITED -> "exited with code " + result.exitCode();
            case CANCELLED -> "was killed";
            case TIMED_OUT -> "timed out";
            case OUT_OF_MEMORY -> "ran out of memory";
        };
    }

    /** Text from outside, on one line and cut short. */
    private static String quote(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= QUOTE_CHARS ? line : Utf16.head(line, QUOTE_CHARS - 1) + "…";
    }
}
