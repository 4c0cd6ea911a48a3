package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.glob.Glob;
import dev.dockhand.core.tool.BaseTool;
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
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Finds files by glob pattern, newest first, leaving out what .gitignore excludes. Lists the files through ripgrep
 * when it is installed ({@link RipgrepFiles}, much faster on large trees) and by the Java walk otherwise; both give the
 * same files.
 */
public final class GlobTool extends BaseTool<GlobTool.Params> {
    public static final String NAME = "glob";
    static final int MAX_RESULTS = 500;
    private static final String DESCRIPTION =
            "Find files whose path matches a glob pattern. Results are paths relative to the workspace root,"
                    + " most recently modified first, at most " + MAX_RESULTS + "; files excluded by .gitignore are"
                    + " left out.";

    /** The model's arguments. */
    public record Params(String pattern, String path) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required(
                    "pattern",
                    Schema.string("Glob pattern relative to the search folder, e.g. \"**/*.java\" or"
                            + " \"src/**/Test*.{ts,tsx}\". ** crosses folders; **/ also matches no folder."))
            .optional(
                    "path",
                    Schema.string("Folder to search in, relative to the workspace root. Default: the" + " root."))
            .build();

    private final Ripgrep ripgrep;

    public GlobTool() {
        this(Ripgrep.find());
    }

    /**
     * A glob that never runs ripgrep, as on a machine without it: for the big-repository benchmark, which measures
     * the Java walk beside ripgrep.
     */
    public static GlobTool withoutRipgrep() {
        return new GlobTool(Optional.empty());
    }

    GlobTool(Optional<Ripgrep> ripgrep) {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
        this.ripgrep = ripgrep.orElse(null);
    }

    @Override
    public Optional<String> validate(Params params) {
        return invalid("the glob pattern", params.pattern());
    }

    /** Why {@code pattern} (named {@code what} to the model) is no glob, for a call's validation; empty when it is one. */
    static Optional<String> invalid(String what, String pattern) {
        try {
            Glob.compile(pattern);
            return Optional.empty();
        } catch (Glob.InvalidGlobException e) {
            return Optional.of(what + " is invalid: " + e.getMessage() + ".");
        }
    }

    @Override
    public String summarize(Params params) {
        return params.path() == null ? params.pattern() : params.pattern() + " in " + params.path();
    }

    /** A file found, with the time it was last changed, for newest-first order. */
    record Match(Path path, FileTime modified) {}

    /**
     * Whether a path relative to the search folder matches the pattern: Java's glob syntax, matched without
     * backtracking ({@link Glob}), where {@code **}{@code /x} also matches {@code x} at the top, as in git and most
     * tools.
     */
    static Predicate<Path> matching(String pattern) {
        return Glob.compile(pattern)::matches;
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) throws InterruptedException {
        String where = params.path() == null ? "." : params.path();
        Predicate<Path> matching = matching(params.pattern());
        List<Match> matches;
        try (WorkspaceFile start = context.workspace().openForRead(where)) {
            if (start.kind() != WorkspaceFile.Kind.DIRECTORY) {
                return ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Folder not found: " + where + ".");
            }
            Optional<List<Match>> fast =
                    ripgrep == null ? Optional.empty() : RipgrepFiles.find(ripgrep, start, matching, context);
            matches = fast.isPresent() ? new ArrayList<>(fast.get()) : walk(start, matching, context);
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not search " + where + ": " + e + ".");
        }
        if (matches.isEmpty()) {
            return ToolResult.success("No files match " + params.pattern() + " in " + where + ".", "no matches");
        }
        matches.sort(Comparator.comparing(Match::modified).reversed().thenComparing(Match::path));
        StringBuilder text = new StringBuilder();
        matches.stream().limit(MAX_RESULTS).forEach(match -> text.append(
                        context.workspace().display(match.path()))
                .append('\n'));
        if (matches.size() > MAX_RESULTS) {
            text.append("[")
                    .append(matches.size() - MAX_RESULTS)
                    .append(" more files not shown; narrow the pattern" + " or the path.]\n");
        }
        return ToolResult.success(text.toString(), matches.size() + (matches.size() == 1 ? " file" : " files"));
    }

    /** The Java walk, which ripgrep's list must equal. */
    private static List<Match> walk(WorkspaceFile start, Predicate<Path> matching, ToolContext context)
            throws IOException {
        Path folder = start.path();
        List<Match> matches = new ArrayList<>();
        new WorkspaceWalker(new IgnoreRules(context.workspace(), List.of()), context.cancellation())
                .walk(start, (file, attributes, content) -> {
                    if (matching.test(folder.relativize(file))) {
                        matches.add(new Match(file, attributes.lastModifiedTime()));
                    }
                    return true;
                });
        return matches;
    }
}
