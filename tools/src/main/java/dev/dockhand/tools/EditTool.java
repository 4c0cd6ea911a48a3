package dev.dockhand.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Replaces exact text in a file. The old text must occur once (or {@code replace_all}); a miss shows the closest
 * lines so the model can correct itself. CRLF files and a final newline stay as they were. Calls to one file never
 * race: the scheduler runs EDIT calls one at a time, in order.
 */
public final class EditTool extends BaseTool<EditTool.Params> {
    public static final String NAME = "edit";
    private static final String DESCRIPTION =
            "Replace exact text in a file (old_string → new_string). old_string must match exactly once unless"
                    + " replace_all is true. With an empty old_string, creates a file that does not exist yet."
                    + " Read the file first.";

    /** The model's arguments. */
    public record Params(
            String path,
            @JsonProperty("old_string") String oldString,
            @JsonProperty("new_string") String newString,
            @JsonProperty("replace_all") Boolean replaceAll) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("path", Schema.string("File to edit, relative to the workspace root."))
            .required(
                    "old_string",
                    Schema.string("Exact text to replace, including indentation, as read_file shows"
                            + " it (without the line-number prefix). Include enough surrounding lines to make it unique."
                            + " Empty to create a new file."))
            .required("new_string", Schema.string("The text to put in its place."))
            .optional(
                    "replace_all",
                    Schema.bool("Replace every occurrence instead of requiring exactly one." + " Default false."))
            .build();

    public EditTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.EDIT, Params.class);
    }

    @Override
    public List<String> writes(Params params) {
        return List.of(params.path());
    }

    @Override
    public Optional<String> validate(Params params) {
        if (!params.oldString().isEmpty() && params.oldString().equals(params.newString())) {
            return Optional.of("old_string and new_string are the same; there is nothing to change.");
        }
        return Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return params.path();
    }

    @Override
    public Optional<String> preview(Params params, Workspace workspace) {
        try (WorkspaceFile file = workspace.open(params.path())) {
            return plan(params, file).change().map(change -> change.shown.diff());
        } catch (PathOutsideWorkspaceException | IOException e) {
            // The call itself reports the problem when it runs.
            return Optional.empty();
        }
    }

    /** Reads, plans and writes through one open file, so the text replaced is the text read. */
    @Override
    public ToolResult execute(Params params, ToolContext context) {
        // The turn keeps a sandbox's copy back of the same files from coming between the read and the write.
        try (HostWrites.Turn turn = context.hostWriteTurn();
                WorkspaceFile file = context.openForWrite(params.path())) {
            Plan plan = plan(params, file);
            if (plan.change().isEmpty()) {
                return plan.error();
            }
            Change change = plan.change().get();
            file.write(change.after.getBytes(StandardCharsets.UTF_8));
            return done(params, change);
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not write " + params.path() + ": " + e + ".");
        }
    }

    private static ToolResult done(Params params, Change change) {
        String stat = change.shown.stat();
        String what = change.before.isEmpty() && params.oldString().isEmpty()
                ? "Created " + params.path()
                : "Edited " + params.path() + ": " + change.replacements
                        + (change.replacements == 1 ? " replacement" : " replacements");
        return ToolResult.success(what + " (" + stat + ").\n" + change.shown.diff(), what + " (" + stat + ")");
    }

    /** A change ready to write, with its diff and stat. */
    private record Change(String before, String after, int replacements, Diffs.Shown shown) {}

    /** Either a change or the error result explaining why there is none. */
    private record Plan(Optional<Change> change, ToolResult error) {
        static Plan of(Change change) {
            return new Plan(Optional.of(change), null);
        }

        static Plan failed(ToolErrorType type, String message) {
            return new Plan(Optional.empty(), ToolResult.error(type, message));
        }
    }

    private static Plan plan(Params params, WorkspaceFile file) {
        try {
            WorkspaceFile.Kind kind = file.kind();
            if (params.oldString().isEmpty()) {
                return create(params, kind);
            }
            if (kind != WorkspaceFile.Kind.FILE) {
                return Plan.failed(
                        ToolErrorType.FILE_NOT_FOUND,
                        "File not found: " + params.path() + ". To create it, call edit with an empty old_string.");
            }
            byte[] bytes = file.readAllBytes();
            Optional<Plan> refused = refusedAsText(params.path(), bytes);
            if (refused.isPresent()) {
                return refused.get();
            }
            return replace(params, new String(bytes, StandardCharsets.UTF_8));
        } catch (PathChangedException e) {
            return new Plan(Optional.empty(), e.toResult());
        } catch (IOException e) {
            return Plan.failed(ToolErrorType.IO_ERROR, "Could not read " + params.path() + ": " + e + ".");
        }
    }

    /**
     * Edit writes the whole file back from its text, so it changes only files whose bytes that text holds exactly:
     * not a binary file (a NUL in its first 8 KiB, as read_file decides), and not one whose bytes are not UTF-8,
     * whose every such byte, on lines the edit never touched, would become U+FFFD.
     */
    private static Optional<Plan> refusedAsText(String path, byte[] bytes) {
        if (TextFiles.isBinary(bytes, bytes.length)) {
            return Optional.of(Plan.failed(
                    ToolErrorType.INVALID_PARAMS,
                    path + " is a binary file (" + TextFiles.size(bytes.length) + "); edit only changes text files."));
        }
        int bad = TextFiles.firstNonUtf8(bytes);
        if (bad >= 0) {
            return Optional.of(Plan.failed(
                    ToolErrorType.INVALID_PARAMS,
                    path + " is not UTF-8 text (the byte at offset " + bad
                            + " is not; Latin-1 or Windows-1252, perhaps), and"
                            + " edit would rewrite every such byte of the file and corrupt it. Nothing was changed."
                            + " Change it with a command that keeps its encoding (sed, or iconv to convert it), or"
                            + " replace it whole with write_file, which writes UTF-8."));
        }
        return Optional.empty();
    }

    private static Plan create(Params params, WorkspaceFile.Kind kind) {
        if (kind != WorkspaceFile.Kind.MISSING) {
            return Plan.failed(
                    ToolErrorType.INVALID_PARAMS,
                    params.path() + " already exists; give old_string to"
                            + " change part of it, or use write_file to replace it whole.");
        }
        String after = params.newString();
        return Plan.of(new Change("", after, 1, Diffs.shown(params.path(), "", after)));
    }

    private static Plan replace(Params params, String before) {
        boolean crlf = TextFiles.lineSeparatorOf(before).equals("\r\n");
        String oldText = crlf ? toCrlf(params.oldString()) : params.oldString();
        String newText = crlf ? toCrlf(params.newString()) : params.newString();
        Occurrences found = Occurrences.of(before, oldText);
        if (found.count() == 0) {
            return Plan.failed(
                    ToolErrorType.EDIT_NO_MATCH,
                    "old_string was not found in " + params.path() + "."
                            + ClosestLines.describe(before, params.oldString()));
        }
        boolean all = Boolean.TRUE.equals(params.replaceAll());
        if (found.count() > 1 && !all) {
            return Plan.failed(
                    ToolErrorType.EDIT_NO_MATCH,
                    "old_string occurs " + found.count() + " times in "
                            + params.path() + " (at lines " + found.lines()
                            + "). Include more surrounding lines to make it"
                            + " unique, or set replace_all to change every one.");
        }
        String after = all ? before.replace(oldText, newText) : found.replaceFirst(before, oldText, newText);
        after = withFinalNewlineOf(before, after, crlf ? "\r\n" : "\n");
        return Plan.of(new Change(before, after, all ? found.count() : 1, Diffs.shown(params.path(), before, after)));
    }

    /** Models write LF; a CRLF file's old and new text are matched and written with CRLF. */
    private static String toCrlf(String text) {
        return text.contains("\r\n") ? text : text.replace("\n", "\r\n");
    }

    /** An edit near the end must not add or drop the file's final newline. */
    static String withFinalNewlineOf(String before, String after, String newline) {
        boolean had = before.endsWith("\n");
        boolean has = after.endsWith("\n");
        if (had && !has && !after.isEmpty()) {
            return after + newline;
        }
        if (!had && has) {
            return after.substring(0, after.length() - (after.endsWith("\r\n") ? 2 : 1));
        }
        return after;
    }
}
