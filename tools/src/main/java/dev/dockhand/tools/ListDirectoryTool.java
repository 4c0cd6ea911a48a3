package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

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
    public Optional<String> validate(Params params) {
        List<String> ignore = params.ignore() == null ? List.of() : params.ignore();
        for (int i = 0; i < ignore.size(); i++) {
            Optional<String> invalid = GlobTool.invalid("ignore[" + i + "]", ignore.get(i));
            if (invalid.isPresent()) {
                return invalid;
            }
        }
        return Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return params.path() == null ? "." : params.path();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        String shown = summarize(params);
        try (WorkspaceFile target = context.workspace().openForRead(shown)) {
            WorkspaceFile.Kind kind = target.kind();
            if (kind != WorkspaceFile.Kind.DIRECTORY) {
                return kind == WorkspaceFile.Kind.MISSING
                        ? ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Folder not found: " + shown + ".")
                        : ToolResult.error(
                                ToolErrorType.INVALID_PARAMS,
                                shown + " is a file, not a folder; read it with" + " read_file.");
            }
            IgnoreRules rules =
                    new IgnoreRules(context.workspace(), params.ignore() == null ? List.of() : params.ignore());
            rules.startAt(target.path());
            try (OpenFolder folder = target.openFolder()) {
                return list(shown, folder, rules);
            }
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not list " + shown + ": " + e + ".");
        }
    }

    /** An entry with its own attributes: a link is described, never followed. */
    private record Entry(Path path, BasicFileAttributes attributes) {}

    private static ToolResult list(String shown, OpenFolder folder, IgnoreRules rules) throws IOException {
        List<Entry> folders = new ArrayList<>();
        List<Entry> files = new ArrayList<>();
        int ignored = 0;
        List<Path> entries = folder.names().stream()
                .map(folder.path()::resolve)
                .sorted(Comparator.comparing(Path::getFileName))
                .toList();
        for (Path path : entries) {
            Optional<BasicFileAttributes> attributes =
                    folder.attributes(path.getFileName().toString());
            if (attributes.isEmpty()) {
                // Removed since the folder was listed.
                continue;
            }
            boolean directory = attributes.get().isDirectory();
            if (rules.isIgnored(path, directory)) {
                ignored++;
            } else if (directory) {
                folders.add(new Entry(path, attributes.get()));
            } else {
                files.add(new Entry(path, attributes.get()));
            }
        }
        return ToolResult.success(
                listing(shown, folders, files, ignored), folders.size() + " folders, " + files.size() + " files");
    }

    private static String listing(String shown, List<Entry> folders, List<Entry> files, int ignored) {
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
        for (Entry folder : folders) {
            text.append(folder.path().getFileName()).append("/\n");
        }
        for (Entry file : files) {
            text.append(file.path().getFileName());
            if (file.attributes().isSymbolicLink()) {
                text.append(" -> symlink");
            } else {
                text.append("  ").append(TextFiles.size(file.attributes().size()));
            }
            text.append('\n');
        }
        return text.toString();
    }
}
