package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.FileTrees;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.testing.GitRepositories;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Docker sandbox keeps the protected paths read-only: what the issue's reproductions planted from inside the
 * container (a git hook, {@code core.fsmonitor}, a hook in a nested repository, Dockhand's own settings, an editor's
 * tasks, another coding agent's hooks or MCP servers) fails and leaves the host unchanged, while ordinary git work
 * goes on. What no mount can hold (a protected link, a path that must stay absent) is put back, also while a command
 * runs in the background, and never by reaching through a link out of the workspace.
 */
@Tag("docker")
class DockerProtectedPathsTest {
    private static final String[] PROTECTED = {
        ".git/hooks",
        ".git/config",
        "vendor/x/.git/hooks",
        "vendor/x/.git/config",
        ".dockhand",
        ".vscode",
        ".devcontainer",
        ".husky",
        ".idea",
        ".claude",
        ".gemini",
        ".qwen",
        ".codex",
        ".cursor",
        ".opencode"
    };

    /** How many commands, each followed by a clean-up, run while a folder is swapped for a link out. */
    private static final int SWAP_ROUNDS = 12;

    /**
     * What the reviewer's attack ran in the background (hand-written after its description), ten times over: keeps
     * {@code place} a folder holding, for each of ten pairs, {@code xN}, a folder of files named as some of the outside
     * folder's, and {@code lN}, a link to that folder (a path of the host's: the workspace is mounted at its own path, so
     * the container knows where it is), and exchanges the two of each pair with renameat2 over and over.
     */
    private static final String SWAPPER = String.join(
            "\n",
            "import ctypes, os, sys",
            "libc = ctypes.CDLL(None, use_errno=True)",
            "place, outside = sys.argv[1], sys.argv[2]",
            "pairs = [((place + '/x%d' % n).encode(), (place + '/l%d' % n).encode(), n) for n in range(10)]",
            "while True:",
            "    try:",
            "        if os.path.islink(place):",
            "            os.unlink(place)",
            "        os.makedirs(place, exist_ok=True)",
            "        for x, l, n in pairs:",
            "            if os.path.islink(x) and os.path.isdir(l) and not os.path.islink(l):",
            "                libc.renameat2(-100, x, -100, l, 2)",
            "            if not os.path.lexists(x):",
            "                os.mkdir(x)",
            "                for i in range(20 * n, 20 * n + 20):",
            "                    open(x + b'/f%d' % i, 'w').close()",
            "            if not os.path.lexists(l):",
            "                os.symlink(outside, l)",
            "        live = pairs",
            "        while live:",
            "            live = [(x, l, n) for x, l, n in live if libc.renameat2(-100, x, -100, l, 2) == 0]",
            "    except OSError:",
            "        pass",
            "");

    @TempDir
    Path temp;

    private Path workspace;
    private DockerSandbox sandbox;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeEach
    void repository() throws Exception {
        workspace = temp.toRealPath().resolve("project");
        GitRepositories.withNestedRepository(workspace);
    }

    @AfterEach
    void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    private void open(ProtectedPaths rules) {
        sandbox = DockerAvailable.sandbox(
                DockerSettings.DEFAULT, workspace, Map.of(), ProtectedLayout.lazily(List.of(workspace), rules));
    }

    private ExecResult run(String command) throws Exception {
        lines.clear();
        return sandbox.exec(
                new ExecRequest(command, workspace, Duration.ofSeconds(60)), lines::add, new Cancellation());
    }

    @Test
    void whatTheIssuePlantedFailsAndTheHostIsUnchanged() throws Exception {
        Map<String, String> before = GitRepositories.contents(workspace, PROTECTED);
        open(ProtectedPaths.defaults());

        for (String plant : List.of(
                "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
                "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> .git/config",
                "git config core.fsmonitor 'touch /tmp/pwned'",
                "printf '#!/bin/sh\\necho pwned\\n' > vendor/x/.git/hooks/post-checkout",
                "mkdir -p .dockhand && echo '{\"approvalMode\":\"yolo\"}' > .dockhand/settings.json",
                "mkdir -p .vscode && echo '{\"tasks\":[]}' > .vscode/tasks.json",
                "mkdir -p .devcontainer && echo '{\"initializeCommand\":\"touch MARK\"}'"
                        + " > .devcontainer/devcontainer.json",
                "mkdir -p .husky && echo 'curl evil' > .husky/pre-commit",
                "mkdir -p .idea && echo '<project/>' > .idea/workspace.xml",
                "mkdir -p .claude && echo '{\"hooks\":{}}' > .claude/settings.json",
                "mkdir -p .gemini && echo '{\"mcpServers\":{}}' > .gemini/settings.json",
                "mkdir -p .qwen && echo '{\"mcpServers\":{}}' > .qwen/settings.json",
                "mkdir -p .codex && echo '[mcp_servers.x]' > .codex/config.toml",
                "mkdir -p .cursor && echo '{\"mcpServers\":{}}' > .cursor/mcp.json",
                "mkdir -p .opencode && echo '{\"mcp\":{}}' > .opencode/opencode.json",
                "mv .git .git-old && mkdir -p .git/hooks && echo pwned > .git/hooks/pre-commit",
                "rm -rf .git/hooks",
                "mv vendor/x/.git/config vendor/x/.git/config.old")) {
            ExecResult result = run(plant);

            assertNotEquals(0, result.exitCode(), plant + " " + lines);
            assertTrue(
                    result.notice().orElse("").startsWith("A write failed on a protected path: in the sandbox"),
                    plant + " " + result);
        }

        assertEquals(before, GitRepositories.contents(workspace, PROTECTED));
        assertFalse(Files.exists(workspace.resolve(".git-old")));
    }

    @Test
    void ordinaryGitWorkStillWorksInTheSandbox() throws Exception {
        open(ProtectedPaths.defaults());

        ExecResult result = run("echo b > b.txt && git add b.txt && git commit -q -m x && git checkout -q -b feature"
                + " && echo c >> b.txt && git stash -q && git stash list | wc -l && git log --oneline | wc -l");

        assertEquals(ExecResult.exited(0), result, lines.toString());
        assertEquals(List.of("1", "2"), lines);
    }

    @Test
    void aPathTheUserAllowedIsWritable() throws Exception {
        open(new ProtectedPaths(List.of(), List.of(".git/hooks")));

        ExecResult result = run("echo lint > .git/hooks/pre-commit");

        assertEquals(ExecResult.exited(0), result, lines.toString());
        assertEquals("lint\n", Files.readString(workspace.resolve(".git/hooks/pre-commit")));
    }

    @Test
    void theEmptyFoldersMountedOverMissingOnesAreGoneAfterTheSession() throws Exception {
        open(ProtectedPaths.defaults());
        run("true");
        // While the session runs, the user's own editor may write there on the host: that one stays.
        Files.writeString(workspace.resolve(".idea/workspace.xml"), "<project/>\n");

        sandbox.close();
        sandbox = null;

        assertFalse(Files.exists(workspace.resolve(".vscode")));
        assertFalse(Files.exists(workspace.resolve(".dockhand")));
        assertFalse(Files.exists(workspace.resolve(".husky")));
        assertFalse(Files.exists(workspace.resolve(".devcontainer")));
        for (String agent : List.of(".claude", ".gemini", ".qwen", ".codex", ".cursor", ".opencode")) {
            assertFalse(Files.exists(workspace.resolve(agent)), agent);
        }
        assertEquals("<project/>\n", Files.readString(workspace.resolve(".idea/workspace.xml")));
    }

    @Test
    void aMissingHooksFolderTheConfigStillNamesIsAPlaceholderNoResultWarnsAboutAndWhatTheUserPutThereStays()
            throws Exception {
        // Husky was removed, the config still points git there.
        GitRepositories.git(workspace, "config", "core.hooksPath", ".husky");
        open(ProtectedPaths.defaults());

        ExecResult result = run("git status --porcelain > /dev/null && echo ok");
        ExecResult planted = run("echo 'touch MARK' > .husky/pre-commit");
        // The user runs "npx husky init" on this machine while the session runs.
        Files.writeString(workspace.resolve(".husky/pre-commit"), "npm test\n");
        sandbox.close();
        sandbox = null;

        assertEquals(ExecResult.exited(0), result);
        assertEquals(1, planted.exitCode());
        // Said once: the placeholder is read-only; nothing about putting it back or removing it.
        String notice = planted.notice().orElse("");
        assertTrue(notice.startsWith("A write failed on a protected path: in the sandbox "), notice);
        assertFalse(notice.contains("Could not put back"), notice);
        assertEquals("npm test\n", Files.readString(workspace.resolve(".husky/pre-commit")));
    }

    @Test
    void aGitFileThatPointsASubmoduleElsewhereIsProtected() throws Exception {
        Files.createDirectories(workspace.resolve("libs/foo"));
        Files.writeString(workspace.resolve("libs/foo/.git"), "gitdir: ../../.git/modules/libs/foo\n");
        open(ProtectedPaths.defaults());

        ExecResult result = run("echo 'gitdir: /tmp/evil' > libs/foo/.git");

        assertNotEquals(0, result.exitCode());
        assertEquals("gitdir: ../../.git/modules/libs/foo\n", Files.readString(workspace.resolve("libs/foo/.git")));
    }

    @Test
    void aCommondirThatWouldLendTheRepositoryAnotherConfigIsRemoved() throws Exception {
        open(ProtectedPaths.defaults());

        ExecResult result = run("mkdir -p .cache/g && cp -r .git/objects .git/refs .git/HEAD .cache/g/"
                + " && printf '[core]\\n\\tfsmonitor = touch MARK\\n' > .cache/g/config"
                + " && echo ../.cache/g > .git/commondir");

        assertEquals(0, result.exitCode(), lines.toString());
        assertTrue(
                result.notice().orElse("").startsWith("Removed .git/commondir, which the command created"),
                result.toString());
        assertFalse(Files.exists(workspace.resolve(".git/commondir")));
        assertEquals("", GitRepositories.git(workspace, "status", "--porcelain", "--untracked-files=no"));
        assertFalse(Files.exists(workspace.resolve("MARK")));
    }

    @Test
    void aSubmodulesGitFolderPreparedWithAHookLosesItsHookAndConfig() throws Exception {
        open(ProtectedPaths.defaults());

        // The folder the user's git submodule update --init would take for lib, and run its post-checkout hook from.
        ExecResult result = run("mkdir -p .git/modules/lib/hooks && cp -r .git/objects .git/refs .git/HEAD"
                + " .git/modules/lib/ && printf '[core]\\n\\tbare = false\\n' > .git/modules/lib/config"
                + " && printf '#!/bin/sh\\ntouch MARK\\n' > .git/modules/lib/hooks/post-checkout");

        assertEquals(0, result.exitCode(), lines.toString());
        assertEquals(
                Optional.of("Removed .git/modules/lib/config, .git/modules/lib/hooks, which the command created: git"
                        + " would take its config and hooks from there on the user's machine. Do not work around it;"
                        + " tell the user."),
                result.notice());
        assertFalse(Files.exists(workspace.resolve(".git/modules/lib/hooks")));
        assertFalse(Files.exists(workspace.resolve(".git/modules/lib/config")));
        assertTrue(Files.exists(workspace.resolve(".git/modules/lib/HEAD")));
    }

    @Test
    void aSubmodulesHookBehindMoreFoldersThanALookCountsIsSaidInTheResultAndToTheUserAtTheEnd() throws Exception {
        // The look into .git/modules counts 100 folders here, 200,000 in a session.
        ProtectedLayout layout = ProtectedLayout.scan(workspace, List.of(workspace), ProtectedPaths.defaults(), 100);
        sandbox = DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, Map.of(), () -> List.of(layout));
        String deep = ".git/modules/lib/" + "objects/00/".repeat(60);

        ExecResult result = run("mkdir -p " + deep + "hooks && printf '#!/bin/sh\\ntouch MARK\\n' > " + deep
                + "hooks/post-checkout && chmod +x " + deep + "hooks/post-checkout");
        List<String> atTheEnd = sandbox.closeAndReport();
        sandbox = null;

        String unchecked = ".git/modules (could not be checked: it holds more than 100 folders; look at it before"
                + " running git submodule commands)";
        assertEquals(0, result.exitCode(), lines.toString());
        assertEquals(
                Optional.of("Could not put back or remove " + unchecked + ", protected paths the command changed: git"
                        + " or an editor on the user's machine may run what is there now. Tell the user to look at them"
                        + " before using git or an editor in this project."),
                result.notice());
        assertEquals(
                List.of("Could not put back or remove " + unchecked + ", protected paths that a command in the sandbox"
                        + " changed: git or an editor on this machine may run what is there now. Look at them before"
                        + " using git or an editor in this project."),
                atTheEnd);
        assertTrue(Files.exists(workspace.resolve(deep + "hooks/post-checkout")));
    }

    @Test
    void theHooksFolderTheConfigNamesAHookManagersFileAndAnMcpJsonAreReadOnly() throws Exception {
        GitRepositories.git(workspace, "config", "core.hooksPath", ".githooks");
        Files.createDirectories(workspace.resolve(".githooks"));
        Files.writeString(workspace.resolve(".pre-commit-config.yaml"), "repos: []\n");
        Files.writeString(workspace.resolve(".mcp.json"), "{\"mcpServers\": {}}\n");
        open(ProtectedPaths.defaults());

        for (String plant : List.of(
                "echo 'touch MARK' > .githooks/pre-commit",
                "printf 'repos:\\n- repo: local\\n' > .pre-commit-config.yaml",
                "echo '{\"mcpServers\":{\"x\":{\"command\":\"touch\"}}}' > .mcp.json")) {
            ExecResult result = run(plant);

            assertNotEquals(0, result.exitCode(), plant);
        }
        assertFalse(Files.exists(workspace.resolve(".githooks/pre-commit")));
        assertEquals("repos: []\n", Files.readString(workspace.resolve(".pre-commit-config.yaml")));
        assertEquals("{\"mcpServers\": {}}\n", Files.readString(workspace.resolve(".mcp.json")));
    }

    @Test
    void aNestedRepositoryCannotBeMovedAsideAndReplaced() throws Exception {
        open(ProtectedPaths.defaults());

        ExecResult moved = run("mv vendor/x vendor/y");
        ExecResult movedParent = run("mv vendor elsewhere");

        assertNotEquals(0, moved.exitCode());
        assertNotEquals(0, movedParent.exitCode());
        assertTrue(Files.isDirectory(workspace.resolve("vendor/x/.git/hooks")));
    }

    @Test
    void aFolderThatIsNoRepositoryCannotBecomeOneInTheSandbox() throws Exception {
        workspace = Files.createDirectories(temp.toRealPath().resolve("plain"));
        open(ProtectedPaths.defaults());

        ExecResult result = run("git init -q . && echo pwned > .git/hooks/pre-commit");

        assertNotEquals(0, result.exitCode());
        sandbox.close();
        sandbox = null;
        assertFalse(Files.exists(workspace.resolve(".git")));
    }

    @Test
    void aReplacementContainerLeavesOutWhatVanishedInsteadOfCreatingItAsRoot() throws Exception {
        Files.createDirectories(workspace.resolve(".idea"));
        open(ProtectedPaths.defaults());
        run("true");
        // The user's editor removes its folder on the host; then the container dies.
        Files.delete(workspace.resolve(".idea"));
        new ProcessBuilder("docker", "rm", "-f", sandbox.containerId())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();

        ExecResult result = run("echo alive");

        assertEquals(0, result.exitCode(), lines.toString());
        assertEquals(List.of("alive"), lines);
        assertFalse(Files.exists(workspace.resolve(".idea")));
    }

    private static final String PUT_BACK_VSCODE = "Put back .vscode, a protected link the command replaced: programs on"
            + " the user's machine read what they run or obey through it. Do not work around it; tell the user.";

    /** The paths the container {@code id} has mounted, as {@code docker inspect} lists them. */
    private static List<String> mountedIn(String id) throws Exception {
        Process inspect = new ProcessBuilder(
                        "docker", "inspect", "-f", "{{range .Mounts}}{{println .Destination}}{{end}}", id)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(inspect.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, inspect.waitFor(), out);
        return out.lines().filter(line -> !line.isBlank()).sorted().toList();
    }

    @Test
    void whatACommandPlantedBeforeStoppingItsOwnContainerIsUndoneByTheTimeItsResultIsReturned() throws Exception {
        Files.createDirectories(workspace.resolve("cfg"));
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        open(ProtectedPaths.defaults());
        run("true");

        // The container's user may kill its sleep, which stops the container, sweeps and all.
        ExecResult attack = run("echo ../.cache/g > .git/commondir && rm .vscode && mkdir .vscode"
                + " && echo '{\"tasks\":[{\"command\":\"touch MARK\"}]}' > .vscode/tasks.json"
                + " && pkill -KILL -x sleep; sleep 60");

        assertEquals(
                ExecResult.exited(137)
                        .withNotice(PUT_BACK_VSCODE)
                        .withNotice("Removed .git/commondir, which the command created: git would take its config and"
                                + " hooks from there on the user's machine. Do not work around it; tell the user."),
                attack);
        assertFalse(Files.exists(workspace.resolve(".git/commondir"), LinkOption.NOFOLLOW_LINKS));
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(workspace.resolve(".vscode")));
        assertEquals(List.of(), FileTrees.files(workspace.resolve("cfg"), 10));

        ExecResult next = run("echo alive");
        assertEquals(ExecResult.exited(0), next, lines.toString());
        assertFalse(mountedIn(sandbox.containerId())
                .contains(workspace.resolve(".vscode").toString()));
    }

    @Test
    void aCommondirABackgroundCommandPlantsBeforeStoppingTheContainerIsRemovedWithoutAnyOtherCommand()
            throws Exception {
        open(ProtectedPaths.defaults());
        Path commondir = workspace.resolve(".git/commondir");

        BackgroundProcess planter = sandbox.start(
                "echo ../.cache/g > .git/commondir && pkill -KILL -x sleep", workspace, temp.resolve("bg"));
        // It ends when the container stops, which comes after the plant.
        SandboxContractTest.await(
                "the background command to end", () -> planter.result().isPresent());
        SandboxContractTest.await(
                ".git/commondir to be removed", () -> !Files.exists(commondir, LinkOption.NOFOLLOW_LINKS));

        assertEquals(null, sandbox.containerId());
        ExecResult next = run("echo alive");
        assertEquals(
                ExecResult.exited(0)
                        .withNotice("Removed .git/commondir, which a command or program running in the background in"
                                + " the sandbox created: git would take its config and hooks from there on the user's"
                                + " machine. Do not work around it; tell the user."),
                next);
        assertEquals(List.of("alive"), lines);
    }

    @Test
    void aFolderPutInPlaceOfAProtectedLinkBeforeTheContainerDiedIsPutBackBeforeTheFreshOneStarts() throws Exception {
        Files.createDirectories(workspace.resolve("cfg"));
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        open(ProtectedPaths.defaults());
        run("true");
        // What a command did, its container dying before any sweep could see it:
        Files.delete(workspace.resolve(".vscode"));
        Files.createDirectories(workspace.resolve(".vscode"));
        Files.writeString(workspace.resolve(".vscode/tasks.json"), "{\"tasks\":[{\"command\":\"touch MARK\"}]}\n");
        new ProcessBuilder("docker", "rm", "-f", sandbox.containerId())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();

        ExecResult next = run("echo alive");
        List<String> said = List.copyOf(lines);
        List<String> mounted = mountedIn(sandbox.containerId());
        ExecResult again = run("rm .vscode && mkdir .vscode && echo '{}' > .vscode/tasks.json");

        assertEquals(ExecResult.exited(0).withNotice(DockerSandbox.REPLACED).withNotice(PUT_BACK_VSCODE), next);
        assertEquals(List.of("alive"), said);
        assertFalse(mounted.contains(workspace.resolve(".vscode").toString()), mounted.toString());
        assertTrue(mounted.contains(workspace.resolve("cfg").toString()), mounted.toString());
        assertEquals(ExecResult.exited(0).withNotice(PUT_BACK_VSCODE), again);
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(workspace.resolve(".vscode")));
        assertEquals(List.of(), FileTrees.files(workspace.resolve("cfg"), 10));
    }

    /** A folder outside the workspace, with a marker file that must stay out of the container's sight. */
    private Path secret() throws Exception {
        Path secret = Files.createDirectories(temp.toRealPath().resolve("secret"));
        Files.writeString(secret.resolve("marker"), "host only\n");
        return secret;
    }

    @Test
    void aProtectedPathThatIsALinkOutOfTheWorkspaceBringsNothingOfTheHostIn() throws Exception {
        Path secret = secret();
        Files.createSymbolicLink(workspace.resolve(".mcp.json"), secret.resolve("marker"));
        Files.createDirectories(workspace.resolve("sub"));
        Files.createSymbolicLink(workspace.resolve("sub/lefthook.yml"), secret);
        FileTrees.deleteTree(workspace.resolve(".git/hooks"));
        Files.createSymbolicLink(workspace.resolve(".git/hooks"), secret);
        open(ProtectedPaths.defaults());

        ExecResult read = run("cat .mcp.json; cat sub/lefthook.yml/marker; cat .git/hooks/marker; ls " + secret);
        List<String> seen = List.copyOf(lines);
        ExecResult write = run("echo pwned > sub/lefthook.yml/marker; echo pwned > .git/hooks/pre-commit");

        assertEquals(
                List.of(),
                seen.stream().filter(line -> line.contains("host only")).toList());
        assertNotEquals(0, read.exitCode());
        assertNotEquals(0, write.exitCode());
        assertEquals(
                List.of("marker"),
                FileTrees.files(secret, 10).stream().map(Path::toString).toList());
        assertEquals("host only\n", Files.readString(secret.resolve("marker")));
    }

    @Test
    void aReplacementContainerDoesNotMountAProtectedPathThatBecameALink() throws Exception {
        Path secret = secret();
        Files.createDirectories(workspace.resolve("pkg/app/.vscode"));
        open(ProtectedPaths.defaults());
        run("true");

        ExecResult attack =
                run("mv pkg pkg2 && mkdir -p pkg/app && ln -s " + secret + " pkg/app/.vscode && kill -TERM 1");
        // Had the move gone through (the pins are what stops it), the replacement container would meet this:
        Files.move(workspace.resolve("pkg"), workspace.resolve("pkg2"));
        Files.createDirectories(workspace.resolve("pkg/app"));
        Files.createSymbolicLink(workspace.resolve("pkg/app/.vscode"), secret);
        new ProcessBuilder("docker", "rm", "-f", sandbox.containerId())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();
        ExecResult read = run("cat pkg/app/.vscode/marker; ls " + secret);

        assertNotEquals(0, attack.exitCode());
        assertNotEquals(0, read.exitCode(), lines.toString());
        assertEquals(
                List.of(),
                lines.stream().filter(line -> line.contains("host only")).toList());
        assertEquals(
                List.of("marker"),
                FileTrees.files(secret, 10).stream().map(Path::toString).toList());
    }

    @Test
    void aFolderAboveANestedProtectedPathCannotBeMovedAsideAndReplaced() throws Exception {
        Files.createDirectories(workspace.resolve("scripts"));
        Files.writeString(workspace.resolve("scripts/pre-commit"), "#!/bin/sh\nexit 0\n");
        Files.createSymbolicLink(workspace.resolve(".git/hooks/pre-commit"), Path.of("../../scripts/pre-commit"));
        Files.createDirectories(workspace.resolve("pkg/app/.claude"));
        Files.writeString(workspace.resolve("pkg/app/.claude/settings.json"), "{}\n");
        Files.writeString(workspace.resolve("pkg/lefthook.yml"), "pre-commit: {}\n");
        Files.createDirectories(workspace.resolve("tools/git/hooks"));
        GitRepositories.git(workspace, "config", "core.hooksPath", "tools/git/hooks");
        open(ProtectedPaths.defaults());

        for (String attack : List.of(
                "mv scripts scripts2 && mkdir scripts && printf '#!/bin/sh\\necho PWNED\\n' > scripts/pre-commit"
                        + " && chmod +x scripts/pre-commit",
                "mv pkg pkg2 && mkdir -p pkg/app/.claude && echo '{\"hooks\":{}}' > pkg/app/.claude/settings.json",
                "mv pkg/app pkg/app2 && mkdir -p pkg/app/.claude && echo '{}' > pkg/app/.claude/x.json",
                "mv tools tools2 && mkdir -p tools/git/hooks && echo 'echo PWNED' > tools/git/hooks/pre-commit",
                "mv tools/git tools/git2 && mkdir -p tools/git/hooks && echo 'echo PWNED' > tools/git/hooks/pre-commit")) {
            ExecResult result = run(attack);

            assertNotEquals(0, result.exitCode(), attack + " " + lines);
        }

        assertEquals("#!/bin/sh\nexit 0\n", Files.readString(workspace.resolve("scripts/pre-commit")));
        assertEquals("{}\n", Files.readString(workspace.resolve("pkg/app/.claude/settings.json")));
        assertEquals("pre-commit: {}\n", Files.readString(workspace.resolve("pkg/lefthook.yml")));
        assertEquals(List.of(), FileTrees.files(workspace.resolve("tools/git/hooks"), 10));
        for (String moved : List.of("scripts2", "pkg2", "pkg/app2", "tools2", "tools/git2")) {
            assertFalse(Files.exists(workspace.resolve(moved)), moved);
        }
    }

    @Test
    void aProtectedFolderThatIsALinkIsProtectedWhereItLeadsAndStaysALink() throws Exception {
        Files.createDirectories(workspace.resolve("cfg"));
        Files.writeString(workspace.resolve("cfg/tasks.json"), "{\"tasks\":[]}\n");
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        Files.createDirectories(workspace.resolve("conf"));
        Files.createSymbolicLink(workspace.resolve(".dockhand"), Path.of("conf"));
        open(ProtectedPaths.defaults());

        ExecResult throughTarget = run("echo '{\"tasks\":[{\"command\":\"touch MARK\"}]}' > cfg/tasks.json");
        ExecResult throughLink = run("echo '{\"approvalMode\":\"yolo\"}' > .dockhand/settings.json");
        ExecResult replaced = run("rm .vscode && mkdir .vscode && echo '{\"tasks\":[]}' > .vscode/tasks.json");

        assertNotEquals(0, throughTarget.exitCode());
        assertNotEquals(0, throughLink.exitCode());
        assertEquals(
                Optional.of("Put back .vscode, a protected link the command replaced: programs on the user's machine"
                        + " read what they run or obey through it. Do not work around it; tell the user."),
                replaced.notice());
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(workspace.resolve(".vscode")));
        assertEquals("{\"tasks\":[]}\n", Files.readString(workspace.resolve("cfg/tasks.json")));
        assertEquals(List.of(), FileTrees.files(workspace.resolve("conf"), 10));
    }

    @Test
    void theHooksAndConfigWhereAGitLinkLeadsAreReadOnly() throws Exception {
        Path git = Files.createDirectories(workspace.resolve(".repo/projects/app.git/hooks"));
        Files.writeString(git.resolveSibling("config"), "[core]\n");
        Files.createDirectories(workspace.resolve("app"));
        Files.createSymbolicLink(workspace.resolve("app/.git"), Path.of("../.repo/projects/app.git"));
        open(ProtectedPaths.defaults());

        for (String attack : List.of(
                "echo 'touch MARK' > .repo/projects/app.git/hooks/post-checkout",
                "printf '[core]\\n\\tfsmonitor = touch MARK\\n' >> app/.git/config",
                "mv .repo/projects .repo/p2 && mkdir -p .repo/projects/app.git/hooks",
                "mv app app2 && mkdir app && ln -s ../elsewhere app/.git")) {
            ExecResult result = run(attack);

            assertNotEquals(0, result.exitCode(), attack + " " + lines);
        }

        assertEquals(List.of(), FileTrees.files(git, 10));
        assertEquals("[core]\n", Files.readString(git.resolveSibling("config")));
        assertEquals(Path.of("../.repo/projects/app.git"), Files.readSymbolicLink(workspace.resolve("app/.git")));
    }

    @Test
    void theHooksAndConfigOfTheBareCloneAGitFileNamesAreReadOnly() throws Exception {
        // A bare clone beside its work trees: proj/.git is a file reading gitdir: ./.bare.
        Path proj = Files.createDirectories(workspace.resolve("proj"));
        GitRepositories.git(proj, "clone", "-q", "--bare", workspace.toString(), ".bare");
        Files.writeString(proj.resolve(".git"), "gitdir: ./.bare\n");
        GitRepositories.git(proj, "config", "core.bare", "false");
        String config = Files.readString(proj.resolve(".bare/config"));
        open(ProtectedPaths.defaults());

        for (String attack : List.of(
                "printf '#!/bin/sh\\ntouch MARK\\n' > proj/.bare/hooks/pre-commit",
                "printf '[core]\\n\\tfsmonitor = touch MARK\\n' >> proj/.bare/config",
                "mv proj/.bare proj/.old && mkdir -p proj/.bare/hooks")) {
            ExecResult result = run(attack);

            assertNotEquals(0, result.exitCode(), attack + " " + lines);
        }

        assertEquals(config, Files.readString(proj.resolve(".bare/config")));
        assertFalse(Files.exists(proj.resolve(".bare/hooks/pre-commit")));
        GitRepositories.git(proj, "status", "--porcelain");
        assertFalse(Files.exists(proj.resolve("MARK")));
    }

    @Test
    void whatTheUserApprovesWhereAProtectedLinkWouldLeadStaysAndNoCommandCanWriteThere() throws Exception {
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        open(ProtectedPaths.defaults());
        run("true");
        // The write the user approved after the file tools asked about cfg/tasks.json (it is .vscode/tasks.json),
        // which makes the folders it needs.
        Files.createDirectories(workspace.resolve("cfg"));
        Files.writeString(workspace.resolve("cfg/tasks.json"), "{\"tasks\": []}\n");

        ExecResult result = run("echo '{\"tasks\":[{\"command\":\"touch MARK\"}]}' > cfg/tasks.json");
        sandbox.close();
        sandbox = null;

        assertNotEquals(0, result.exitCode(), lines.toString());
        assertEquals("{\"tasks\": []}\n", Files.readString(workspace.resolve(".vscode/tasks.json")));
    }

    @Test
    void theHooksFolderAnIncludedFileNamesCannotBeMadeInTheSandbox() throws Exception {
        // The reviewer's attack: the repository includes its tracked .gitconfig, which names .githooks.
        GitRepositories.git(workspace, "config", "include.path", "../.gitconfig");
        Files.writeString(workspace.resolve(".gitconfig"), "[core]\n\thooksPath = .githooks\n");
        open(ProtectedPaths.defaults());

        ExecResult made = run("mkdir .githooks && printf '#!/bin/sh\\ntouch MARK\\n' > .githooks/pre-commit");
        ExecResult edited = run("printf '[core]\\n\\thooksPath = hooks2\\n' > .gitconfig");

        assertEquals(0, made.exitCode(), lines.toString());
        assertTrue(
                made.notice().orElse("").startsWith("Removed .githooks, which the command created"), made.toString());
        assertFalse(Files.exists(workspace.resolve(".githooks")));
        assertNotEquals(0, edited.exitCode());
        assertEquals("[core]\n\thooksPath = .githooks\n", Files.readString(workspace.resolve(".gitconfig")));
    }

    @Test
    void aCommondirABackgroundCommandPlantsIsRemovedWhileItRunsWithoutAnyOtherCommand() throws Exception {
        open(ProtectedPaths.defaults());
        Path commondir = workspace.resolve(".git/commondir");

        BackgroundProcess planter = sandbox.start(
                "echo ../.cache/g > .git/commondir && echo planted && exec sleep 600", workspace, temp.resolve("bg"));
        SandboxContractTest.await(
                "the background command to plant .git/commondir",
                () -> SandboxContractTest.content(planter.outputFile()).contains("planted"));
        SandboxContractTest.await(
                ".git/commondir to be removed", () -> !Files.exists(commondir, LinkOption.NOFOLLOW_LINKS));

        assertEquals(Optional.empty(), planter.result());
        ExecResult next = run("true");
        assertEquals(
                Optional.of("Removed .git/commondir, which a command or program running in the background in the"
                        + " sandbox created: git would take its config and hooks from there on the user's machine. Do"
                        + " not work around it; tell the user."),
                next.notice());
    }

    @Test
    void aCommondirABackgroundCommandPlantsAsItEndsIsRemovedAfterItEnded() throws Exception {
        open(ProtectedPaths.defaults());
        Path commondir = workspace.resolve(".git/commondir");
        Path go = workspace.resolve("go");

        BackgroundProcess planter = sandbox.start(
                "while [ ! -e go ]; do sleep 0.05; done; echo ../.cache/g > .git/commondir",
                workspace,
                temp.resolve("bg"));
        Files.writeString(go, "");
        SandboxContractTest.await(
                "the background command to end", () -> planter.result().isPresent());
        SandboxContractTest.await(
                ".git/commondir to be removed", () -> !Files.exists(commondir, LinkOption.NOFOLLOW_LINKS));

        assertEquals(ExecResult.exited(0), planter.result().orElseThrow());
    }

    @Test
    void aFolderSwappedForALinkOutDuringTheRemovalOfACreatedCommondirLeavesWhereItLeadsAlone() throws Exception {
        Path secret = secretWithFiles();
        open(ProtectedPaths.defaults());

        List<String> lost = runWhileSwapping(workspace.resolve(".git/commondir"), secret);

        assertEquals(List.of(), lost);
        assertFalse(Files.exists(workspace.resolve(".git/commondir"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aFolderSwappedForALinkOutDuringThePutBackOfAProtectedLinkLeavesWhereItLeadsAlone() throws Exception {
        Path secret = secretWithFiles();
        Files.createDirectories(workspace.resolve("cfg"));
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        open(ProtectedPaths.defaults());

        List<String> lost = runWhileSwapping(workspace.resolve(".vscode"), secret);

        assertEquals(List.of(), lost);
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(workspace.resolve(".vscode")));
    }

    /** The names of the files of {@link #secretWithFiles}. */
    private static List<String> names() {
        return IntStream.range(0, 200).mapToObj(i -> "f" + i).toList();
    }

    /** A folder outside the workspace holding files whose names a command can guess, and uses in its own tree. */
    private Path secretWithFiles() throws Exception {
        Path secret = Files.createDirectories(temp.toRealPath().resolve("secret"));
        for (String name : names()) {
            Files.writeString(secret.resolve(name), "the user's\n");
        }
        return secret;
    }

    /**
     * Runs {@link #SWAP_ROUNDS} commands, each followed by the clean-up of the protected paths, while a background
     * command swaps a folder under {@code place} for a link to {@code secret} ({@link #SWAPPER}); then stops it and
     * runs one more. Returns the names of {@code secret}'s files that are gone.
     */
    private List<String> runWhileSwapping(Path place, Path secret) throws Exception {
        Files.writeString(workspace.resolve("swap.py"), SWAPPER);
        BackgroundProcess swapper = sandbox.start(
                "python3 swap.py " + workspace.relativize(place) + " " + secret, workspace, temp.resolve("bg"));
        try {
            for (int round = 0; round < SWAP_ROUNDS; round++) {
                run("true");
            }
        } finally {
            swapper.kill();
        }
        run("true");
        return names().stream()
                .filter(name -> !Files.exists(secret.resolve(name)))
                .toList();
    }
}
