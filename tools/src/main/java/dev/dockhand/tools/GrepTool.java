package dev.dockhand.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Utf16;
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
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Searches file contents with a Java regular expression. Runs ripgrep when it is installed (much faster on large
 * trees) and an equivalent Java search otherwise; both give the same output: {@code path:line:text} lines, grouped by
 * file in path order, binary and .gitignored files skipped. Wherever the Java regex runs (the Java search, and the
 * check of ripgrep's lines), a cancel or the call's deadline stops it ({@link RegexGuard}).
 */
public final class GrepTool extends BaseTool<GrepTool.Params> {
    public static final String NAME = "grep";
    private static final String DESCRIPTION =
            "Search file contents for a Java regular expression. Returns path:line:text lines grouped by file;"
                    + " binary files and files excluded by .gitignore are skipped.";
    static final int DEFAULT_MAX_RESULTS = 200;
    static final int MAX_MAX_RESULTS = 2000;
    static final int MAX_LINE_CHARS = 500;

    /** The model's arguments. */
    public record Params(
            String pattern,
            String path,
            String glob,
            @JsonProperty("case_insensitive") Boolean caseInsensitive,
            @JsonProperty("max_results") Integer maxResults) {}

    /** One matching line. */
    record Match(Path file, long line, String text) {}

    /** What a search found: the matches in order, and whether there were more than asked for. */
    record Found(List<Match> matches, boolean more) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("pattern", Schema.string("Java regular expression to search for, e.g. \"class \\\\w+Test\"."))
            .optional(
                    "path",
                    Schema.string("File or folder to search, relative to the workspace root. Default:" + " the root."))
            .optional(
                    "glob",
                    Schema.string("Only search files matching this glob, e.g. \"*.java\" (any depth) or"
                            + " \"src/**/*.ts\"."))
            .optional("case_insensitive", Schema.bool("Ignore case. Default false."))
            .optional("max_results", Schema.integer("Most matching lines to return. Default 200.", 1, MAX_MAX_RESULTS))
            .build();

    private final Ripgrep ripgrep;
    private final Duration deadline;

    public GrepTool() {
        this(Ripgrep.find());
    }

    /**
     * A grep that never runs ripgrep, as on a machine without it: for the big-repository benchmark, which measures
     * the Java search beside ripgrep.
     */
    public static GrepTool withoutRipgrep() {
        return new GrepTool(Optional.empty());
    }

    GrepTool(Optional<Ripgrep> ripgrep) {
        this(ripgrep, RegexGuard.DEADLINE);
    }

    /** A grep whose calls stop after {@code deadline}. */
    GrepTool(Optional<Ripgrep> ripgrep, Duration deadline) {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
        this.ripgrep = ripgrep.orElse(null);
        this.deadline = deadline;
    }

    @Override
    public Optional<String> validate(Params params) {
        try {
            compile(params);
        } catch (PatternSyntaxException e) {
            return Optional.of("the pattern is not a valid Java regular expression: " + e.getDescription()
                    + " near index " + e.getIndex() + ".");
        }
        return params.glob() == null ? Optional.empty() : GlobTool.invalid("the glob", params.glob());
    }

    static Pattern compile(Params params) {
        boolean ignoreCase = Boolean.TRUE.equals(params.caseInsensitive());
        return Pattern.compile(params.pattern(), ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    }

    @Override
    public String summarize(Params params) {
        return params.pattern() + (params.path() == null ? "" : " in " + params.path());
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) throws InterruptedException {
        String where = params.path() == null ? "." : params.path();
        int max = params.maxResults() == null ? DEFAULT_MAX_RESULTS : params.maxResults();
        RegexGuard guard = new RegexGuard(context.cancellation(), deadline);
        Found found;
        try (WorkspaceFile start = context.workspace().openForRead(where)) {
            switch (start.kind()) {
                case MISSING -> {
                    return ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Not found: " + where + ".");
                }
                case OTHER -> {
                    // Given a pipe by name, ripgrep (and a Java read) would wait for a writer forever.
                    return ToolResult.error(
                            ToolErrorType.IO_ERROR,
                            where + " is not a regular file or a folder (a pipe, socket or device); grep only"
                                    + " searches files and folders.");
                }
                case FILE, DIRECTORY -> {
                    // Searched below.
                }
            }
            Optional<Found> fast =
                    ripgrep == null ? Optional.empty() : ripgrep.search(params, start.path(), max, context, guard);
            found = fast.isPresent()
                    ? fast.get()
                    : JavaGrep.search(
                            compile(params),
                            params.glob(),
                            start,
                            max,
                            context.workspace(),
                            context.cancellation(),
                            guard);
        } catch (RegexGuard.Stopped e) {
            return e.result();
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not search " + where + ": " + e + ".");
        }
        return result(params, found, context);
    }

    static ToolResult result(Params params, Found found, ToolContext context) {
        if (found.matches().isEmpty()) {
            return ToolResult.success("No matches for " + params.pattern() + ".", "no matches");
        }
        Set<Path> files = new LinkedHashSet<>();
        StringBuilder text = new StringBuilder();
        for (Match match : found.matches()) {
            files.add(match.file());
            String line = match.text().length() > MAX_LINE_CHARS
                    ? Utf16.head(match.text(), MAX_LINE_CHARS) + " [… line cut]"
                    : match.text();
            text.append(context.workspace().display(match.file()))
                    .append(':')
                    .append(match.line())
                    .append(':')
                    .append(line)
                    .append('\n');
        }
        String count = found.matches().size() + (found.matches().size() == 1 ? " match" : " matches") + " in "
                + files.size() + (files.size() == 1 ? " file" : " files");
        String header = found.more()
                ? "First " + count + " (more exist; narrow the pattern, path or glob, or raise max_results):\n"
                : count + ":\n";
        return ToolResult.success(header + text, count);
    }
}
