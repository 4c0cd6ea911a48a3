package dev.dockhand.tools;

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

/** Creates or replaces a whole file, atomically, keeping an existing file's line endings. */
public final class WriteFileTool extends BaseTool<WriteFileTool.Params> {
    public static final String NAME = "write_file";
    private static final String DESCRIPTION =
            "Create a file or replace its whole content. For a change to part of an existing file, prefer edit.";

    /** The model's arguments. */
    public record Params(String path, String content) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required(
                    "path",
                    Schema.string("File to write, relative to the workspace root or absolute inside it."
                            + " Missing parent folders are created."))
            .required("content", Schema.string("The complete new content of the file."))
            .build();

    public WriteFileTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.EDIT, Params.class);
    }

    @Override
    public List<String> writes(Params params) {
        return List.of(params.path());
    }

    @Override
    public String summarize(Params params) {
        return params.path();
    }

    /** The change as a unified diff: against /dev/null for a new file, against the current text otherwise. */
    @Override
    public Optional<String> preview(Params params, Workspace workspace) {
        try (WorkspaceFile file = workspace.open(params.path())) {
            return switch (file.kind()) {
                case DIRECTORY, OTHER -> Optional.empty();
                case MISSING -> Optional.of(Diffs.unified(params.path(), "", params.content()));
                case FILE -> previewReplacing(file, params);
            };
        } catch (PathOutsideWorkspaceException | IOException e) {
            // The call itself reports the problem when it runs.
            return Optional.empty();
        }
    }

    private static Optional<String> previewReplacing(WorkspaceFile file, Params params) throws IOException {
        Optional<String> before = TextFiles.text(file);
        if (before.isEmpty()) {
            return Optional.of("(replaces the binary file " + params.path() + ")\n");
        }
        String diff = Diffs.unified(params.path(), before.get(), withLineEndingsOf(before.get(), params.content()));
        return Optional.of(diff.isEmpty() ? "(no change to " + params.path() + ")\n" : diff);
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        // The turn keeps a sandbox's copy back of the same files from coming between the read and the write.
        try (HostWrites.Turn turn = context.hostWriteTurn();
                WorkspaceFile file = context.openForWrite(params.path())) {
            WorkspaceFile.Kind kind = file.kind();
            if (kind == WorkspaceFile.Kind.DIRECTORY) {
                return ToolResult.error(
                        ToolErrorType.INVALID_PARAMS, params.path() + " is a directory; give a file path.");
            }
            boolean existed = kind != WorkspaceFile.Kind.MISSING;
            String content = params.content();
            if (kind == WorkspaceFile.Kind.FILE) {
                Optional<String> before = TextFiles.text(file);
                if (before.isPresent()) {
                    content = withLineEndingsOf(before.get(), content);
                }
            }
            file.write(content.getBytes(StandardCharsets.UTF_8));
            long lines = content.isEmpty() ? 0 : content.lines().count();
            String what = (existed ? "Overwrote " : "Created ") + params.path() + " (" + lines
                    + (lines == 1 ? " line)." : " lines).");
            return ToolResult.success(what, what);
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not write " + params.path() + ": " + e + ".");
        }
    }

    /** A CRLF file stays CRLF when the model writes it back with plain LF, as models almost always do. */
    static String withLineEndingsOf(String existing, String content) {
        boolean crlfFile = TextFiles.lineSeparatorOf(existing).equals("\r\n");
        if (crlfFile && !content.contains("\r\n")) {
            return content.replace("\n", "\r\n");
        }
        return content;
    }
}
