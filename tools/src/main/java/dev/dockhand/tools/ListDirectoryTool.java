package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Lists one folder: sub-folders first, then files with their sizes; ignored entries and {@code .git} left out. */
public final class ListDirectoryTool extends BaseTool<ListDirectoryTool.Params> {
    public static final String NAME = "list_directory";
    private static final String DESCRIPTION =
            "List the entries of one folder (not recursive): folders first, then files with sizes. Entries"
                    + " excluded by .gitignore, and .git, are left out.";

    /** The model's arguments. */
    public record Params(String path, List<String> ignore) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .optional("path", Schema.string("Folder to list, relative to the workspace root. Default: the root."))
            .optional(
                    "ignore",
                    Schema.array(
                            "Glob patterns of entries to leave out, e.g. [\"*.class\", \"dist\"].",
                            Schema.string("A glob pattern.")))
            .build();

    public ListDirectoryTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
    }

    @Override
    public String summarize(Params params) {
        return params.path() == null ? "." : params.path();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        String shown = summarize(params);
        Path folder;
        try {
            folder = context.workspace().resolveForRead(shown);
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        }
        if (!Files.isDirectory(folder)) {
            return Files.exists(folder)
                    ? ToolResult.error(
                            ToolErrorType.INVALID_PARAMS,
                            shown + " is a file, not a folder; read it with" + " read_file.")
                    : ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Folder not found: " + shown + ".");
        }
        IgnoreRules rules =
                new IgnoreRules(context.workspace().root(), params.ignore() == null ? List.of() : params.ignore());
        rules.loadDownTo(folder);
        List<Path> folders = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        int ignored = 0;
        try (Stream<Path> entries = Files.list(folder)) {
            for (Path entry :
                    entries.sorted(Comparator.comparing(Path::getFileName)).toList()) {
                boolean directory = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
                if (rules.isIgnored(entry, directory)) {
                    ignored++;
                } else if (directory) {
                    folders.add(entry);
                } else {
                    files.add(entry);
                }
            }
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not list " + shown + ": " + e + ".");
        }
        return ToolResult.success(
                listing(shown, folders, files, ignored), folders.size() + " folders, " + files.size() + " files");
    }

    private static String listing(String shown, List<Path> folders, List<Path> files, int ignored) {
        StringBuilder text = new StringBuilder();
        text.append(shown)
                .append(": ")
                .append(folders.size())
                .append(folders.size() == 1 ? " folder, " : " folders, ")
                .append(files.size())
                .append(files.size() == 1 ? " file" : " files");
        if (ignored > 0) {
            text.append(" (").append(ignored).append(" ignored entries not shown)");
        }
        text.append('\n');
        for (Path folder : folders) {
            text.append(folder.getFileName()).append("/\n");
        }
        for (Path file : files) {
            text.append(file.getFileName());
            if (Files.isSymbolicLink(file)) {
                text.append(" -> symlink");
            } else {
                try {
                    text.append("  ").append(TextFiles.size(Files.size(file)));
                } catch (IOException e) {
                    text.append("  (size unknown)");
                }
            }
            text.append('\n');
        }
        return text.toString();
    }
}
