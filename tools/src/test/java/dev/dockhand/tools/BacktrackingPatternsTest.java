package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Patterns that make a backtracking matcher run for hours, from a repository's .gitignore or from the model: the
 * wildcards are decided quickly, and grep's Java regex, which must stay a regex, is stopped by a cancel or the call's
 * deadline.
 */
class BacktrackingPatternsTest {
    /** A backtracking matcher tries each star at every place it could end: C(n + 12, 12) ways on n letters. */
    private static final String STARS = "*a*a*a*a*a*a*a*a*a*a*a*a*b";

    /** The same as a Java regex; java.util.regex has no memo for it, unlike for (a+)+ and (a|aa)*. */
    private static final String REGEX = "a*".repeat(12) + "b";

    private static final String LONG_NAME = "a".repeat(255);

    @TempDir
    Path temp;

    private Path workspace;

    @BeforeEach
    void workspace() throws Exception {
        workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
    }

    private ToolContext context() {
        return TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    /** JGit's matcher took 21 s on a 28-character name, doubling with each character more. */
    @Test
    void listDirectoryDecidesAGitignoreRuleOfManyStarsQuickly() throws Exception {
        Files.writeString(workspace.resolve(".gitignore"), STARS + "\n");
        Files.writeString(workspace.resolve(LONG_NAME), "kept\n");
        Files.writeString(workspace.resolve("a".repeat(254) + "b"), "ignored\n");

        ToolResult result = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> new ListDirectoryTool()
                .execute(new ListDirectoryTool.Params(null, null), context()));

        assertEquals(
                ToolResult.success(
                        ".: 0 folders, 2 files (1 ignored entries not shown)\n.gitignore  27 B\n" + LONG_NAME
                                + "  5 B\n",
                        "0 folders, 2 files"),
                result);
    }

    @Test
    void globAndListDirectoryDecideAPatternOfManyStarsQuickly() throws Exception {
        Files.createDirectories(workspace.resolve("src"));
        Files.writeString(workspace.resolve("src/" + LONG_NAME), "x\n");
        Files.writeString(workspace.resolve("src/" + "a".repeat(254) + "b"), "x\n");

        List<ToolResult> results = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> List.of(
                        GlobTool.withoutRipgrep().execute(new GlobTool.Params("**/" + STARS, null), context()),
                        new GlobTool().execute(new GlobTool.Params("src/" + STARS, null), context()),
                        new ListDirectoryTool()
                                .execute(new ListDirectoryTool.Params("src", List.of(STARS)), context())));

        String found = "src/" + "a".repeat(254) + "b\n";
        assertEquals(
                List.of(
                        ToolResult.success(found, "1 file"),
                        ToolResult.success(found, "1 file"),
                        ToolResult.success(
                                "src: 0 folders, 1 file (1 ignored entries not shown)\n" + LONG_NAME + "  2 B\n",
                                "0 folders, 1 files")),
                results);
    }

    @Test
    void grepsGlobOfManyStarsIsDecidedQuickly() throws Exception {
        Files.writeString(workspace.resolve(LONG_NAME), "needle\n");
        Files.writeString(workspace.resolve("a".repeat(254) + "b"), "needle\n");

        ToolResult result = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> GrepTool.withoutRipgrep()
                .execute(new GrepTool.Params("needle", null, STARS, null, null), context()));

        assertEquals(
                ToolResult.success("1 match in 1 file:\n" + "a".repeat(254) + "b:1:needle\n", "1 match in 1 file"),
                result);
    }

    @Test
    void invalidGlobsAreRefusedBeforeTheCallRuns() {
        assertEquals(
                List.of(
                        Optional.of("the glob is invalid: missing ']' at index 2."),
                        Optional.of("ignore[1] is invalid: cannot nest groups at index 3.")),
                List.of(
                        GrepTool.withoutRipgrep().validate(new GrepTool.Params("x", null, "*[a", null, null)),
                        new ListDirectoryTool()
                                .validate(new ListDirectoryTool.Params(null, List.of("ok", "{a,{b}}")))));
    }

    /**
     * Without a guard the regex ran on after the cancel, for hours, on a thread nobody waited for. ripgrep's engine
     * does not backtrack; the check of its lines runs Java's regex on the host, and is stopped the same way.
     */
    @Test
    void aCancelStopsARegexThatBacktracks() throws Exception {
        Files.writeString(workspace.resolve("line.txt"), "a".repeat(200) + "xb\n");
        GrepTool.Params params = new GrepTool.Params(REGEX, null, null, null, null);
        List<Optional<Ripgrep>> searches =
                Ripgrep.find().isPresent() ? List.of(Optional.empty(), Ripgrep.find()) : List.of(Optional.empty());

        for (Optional<Ripgrep> ripgrep : searches) {
            Cancellation cancel = new Cancellation();
            ToolContext context =
                    TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS, OutputSink.NONE, cancel);
            CompletableFuture<ToolResult> result = new CompletableFuture<>();
            Thread search = new Thread(() -> {
                try {
                    result.complete(new GrepTool(ripgrep).execute(params, context));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
            search.setDaemon(true);
            search.start();
            while (!inRegex(search) && !result.isDone()) {
                Thread.onSpinWait();
            }
            cancel.cancel();

            assertEquals(
                    ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled the search."),
                    result.get(30, TimeUnit.SECONDS),
                    ripgrep.isPresent() ? "with ripgrep" : "the Java search");
        }
        assumeTrue(searches.size() == 2, "ripgrep (rg) is not installed: the check of its lines was not tested");
    }

    @Test
    void theDeadlineStopsARegexThatBacktracks() throws Exception {
        Files.writeString(workspace.resolve("line.txt"), "a".repeat(200) + "xb\n");
        GrepTool.Params params = new GrepTool.Params(REGEX, null, null, null, null);

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "The search was stopped after 100 ms: the pattern took too long; simplify it (nested or adjacent"
                                + " repeats such as (a+)+ or a*a*b backtrack), or narrow the path or glob."),
                new GrepTool(Optional.empty(), Duration.ofMillis(100)).execute(params, context()));
    }

    private static boolean inRegex(Thread thread) {
        return Arrays.stream(thread.getStackTrace())
                .anyMatch(frame -> frame.getClassName().startsWith("java.util.regex."));
    }
}
