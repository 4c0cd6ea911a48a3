package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
        try {
            Path file = workspace.resolve(params.path());
            if (Files.isDirectory(file)) {
                return Optional.empty();
            }
            if (!Files.exists(file)) {
                return Optional.of(Diffs.unified(params.path(), "", params.content()));
            }
            if (TextFiles.isBinary(file)) {
                return Optional.of("(replaces the binary file " + params.path() + ")\n");
            }
            String before = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            String diff = Diffs.unified(params.path(), before, withLineEndingsOf(before, params.content()));
            return Optional.of(diff.isEmpty() ? "(no change to " + params.path() + ")\n" : diff);
        } catch (PathOutsideWorkspaceException | IOException e) {
            // The call itself reports the problem when it runs.
            return Optional.empty();
        }
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        Path file;
        try {
            file = context.workspace().resolve(params.path());
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        }
        if (Files.isDirectory(file)) {
            return ToolResult.error(ToolErrorType.INVALID_PARAMS, params.path() + " is a directory; give a file path.");
        }
        boolean existed = Files.exists(file);
        try {
            String content = params.content();
            if (existed && !TextFiles.isBinary(file)) {
                content = withLineEndingsOf(new String(Files.readAllBytes(file), StandardCharsets.UTF_8), content);
            }
            AtomicFiles.write(file, content);
            long lines = content.isEmpty() ? 0 : content.lines().count();
            String what = (existed ? "Overwrote " : "Created ") + params.path() + " (" + lines
                    + (lines == 1 ? " line)." : " lines).");
            return ToolResult.success(what, what);
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
