package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.testing.GitRepositories;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without a container nothing stops a command from changing a protected path; the result says that it did. */
class WatchedSandboxTest {
    @TempDir
    Path temp;

    private Path workspace;
    private WatchedSandbox sandbox;

    @BeforeEach
    void repository() throws Exception {
        workspace = temp.toRealPath().resolve("project");
        GitRepositories.withNestedRepository(workspace);
        sandbox = new WatchedSandbox(
                new LocalSandbox(Map.of("PATH", System.getenv("PATH"))),
                ProtectedLayout.lazily(List.of(workspace), ProtectedPaths.defaults()));
    }

    private ExecResult run(String command) throws Exception {
        return sandbox.exec(
                new ExecRequest(command, workspace, Duration.ofSeconds(30)), line -> {}, new Cancellation());
    }

    @Test
    void aPlantedHookAndAnEditedConfigAreReported() throws Exception {
        ExecResult result =
                run("echo x > .git/hooks/pre-commit && echo '[core]' >> vendor/x/.git/config" + " && mkdir .vscode");

        assertEquals(
                Optional.of("While the command ran, protected paths changed: "
                        + workspace.resolve(".git/hooks/pre-commit") + " (created), " + workspace.resolve(".vscode")
                        + " (created), " + workspace.resolve("vendor/x/.git/config") + " (changed). What is written"
                        + " there (git hooks and config, editor and Dockhand settings) runs later on the user's"
                        + " machine, and without a sandbox nothing prevents it: if this command did it, tell the user"
                        + " exactly what changed and why."),
                result.notice());
    }

    @Test
    void protectedPathsTheScanDidNotFindAreReportedByTheirNames() throws Exception {
        // The scan is made before the command, as a session's first command makes it.
        sandbox.exec(new ExecRequest("true", workspace, Duration.ofSeconds(30)), line -> {}, new Cancellation());

        ExecResult result = run("mkdir -p .git/modules/lib/hooks && echo x > .git/modules/lib/hooks/post-checkout"
                + " && echo '{}' > .mcp.json && mkdir -p vendor/.claude && echo '{}' > vendor/.claude/settings.json"
                + " && ln -s ../../vendor .git/modules/other");

        assertEquals(
                Optional.of("While the command ran, protected paths changed: "
                        + workspace.resolve(".git/modules/lib/hooks") + " (created), "
                        + workspace.resolve(".git/modules/lib/hooks/post-checkout") + " (created), "
                        + workspace.resolve(".git/modules/other") + " (created), " + workspace.resolve(".mcp.json")
                        + " (created), " + workspace.resolve("vendor/.claude") + " (created), "
                        + workspace.resolve("vendor/.claude/settings.json") + " (created). What is written there (git"
                        + " hooks and config, editor and Dockhand settings) runs later on the user's machine, and"
                        + " without a sandbox nothing prevents it: if this command did it, tell the user exactly what"
                        + " changed and why."),
                result.notice());
    }

    @Test
    void anOrdinaryCommandIsNotReported() throws Exception {
        ExecResult result = run("echo b > b.txt && git add b.txt && git commit -q -m x");

        assertEquals(ExecResult.exited(0), result);
    }
}
