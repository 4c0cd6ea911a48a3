package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProtectedPathsTest {

    /** A path relative to the workspace, and the protected entry it falls under ("" when it is not protected). */
    static Stream<Arguments> defaults() {
        return Stream.of(
                Arguments.of(".git/hooks/pre-commit", ".git/hooks"),
                Arguments.of(".git/hooks", ".git/hooks"),
                Arguments.of(".git/config", ".git/config"),
                Arguments.of(".git/config.worktree", ".git/config.worktree"),
                Arguments.of(".git/commondir", ".git/commondir"),
                Arguments.of(".git/modules/lib/commondir", ".git/modules/lib/commondir"),
                Arguments.of(".pre-commit-config.yaml", ".pre-commit-config.yaml"),
                Arguments.of("services/api/lefthook.yml", "services/api/lefthook.yml"),
                Arguments.of(".git", ".git"),
                Arguments.of("vendor/lib/.git", "vendor/lib/.git"),
                Arguments.of("vendor/lib/.git/hooks/post-checkout", "vendor/lib/.git/hooks"),
                Arguments.of("vendor/lib/.git/config", "vendor/lib/.git/config"),
                Arguments.of(".git/modules/libs/foo/hooks/pre-commit", ".git/modules/libs/foo/hooks"),
                Arguments.of(".git/modules/libs/foo/config", ".git/modules/libs/foo/config"),
                Arguments.of(".git/modules/a/modules/b/config", ".git/modules/a/modules/b/config"),
                Arguments.of(".git/worktrees/feature/config.worktree", ".git/worktrees/feature/config.worktree"),
                Arguments.of(".git/worktrees/feature/commondir", ".git/worktrees/feature/commondir"),
                Arguments.of(".vscode/tasks.json", ".vscode"),
                Arguments.of("packages/app/.vscode/settings.json", "packages/app/.vscode"),
                Arguments.of(".idea/workspace.xml", ".idea"),
                Arguments.of(".husky/pre-commit", ".husky"),
                Arguments.of(".dockhand/settings.json", ".dockhand"),
                Arguments.of(".claude/settings.json", ".claude"),
                Arguments.of("packages/app/.claude/commands/deploy.md", "packages/app/.claude"),
                Arguments.of(".gemini/settings.json", ".gemini"),
                Arguments.of(".qwen/settings.json", ".qwen"),
                Arguments.of(".codex/config.toml", ".codex"),
                Arguments.of(".cursor/mcp.json", ".cursor"),
                Arguments.of(".opencode/opencode.jsonc", ".opencode"),
                Arguments.of("packages/app/.opencode/plugins/notify.ts", "packages/app/.opencode"),
                Arguments.of(".mcp.json", ".mcp.json"),
                Arguments.of("opencode.json", "opencode.json"),
                Arguments.of("packages/app/opencode.jsonc", "packages/app/opencode.jsonc"),
                Arguments.of("OpenCode.JSON", "OpenCode.JSON"),
                Arguments.of("packages/app/.mcp.json", "packages/app/.mcp.json"),
                Arguments.of(".devcontainer/devcontainer.json", ".devcontainer"),
                Arguments.of(".devcontainer/python/devcontainer.json", ".devcontainer"),
                Arguments.of(".devcontainer.json", ".devcontainer.json"),
                Arguments.of("services/api/.devcontainer.json", "services/api/.devcontainer.json"),
                Arguments.of(".aider.conf.yml", ".aider.conf.yml"),
                Arguments.of("packages/app/.aider.conf.yml", "packages/app/.aider.conf.yml"),
                Arguments.of(".Claude/Settings.json", ".Claude"),
                Arguments.of("./.git/./hooks/x", ".git/hooks"),
                Arguments.of("src/../.git/config", ".git/config"),
                // A case-insensitive file system (macOS, Windows) opens git's own folder for these.
                Arguments.of(".GIT/Hooks/pre-commit", ".GIT/Hooks"),
                Arguments.of(".Git/CONFIG", ".Git/CONFIG"),
                Arguments.of(".VSCode/tasks.json", ".VSCode"),
                // Everything else of .git stays writable, so git add, commit, checkout and stash work.
                Arguments.of(".git/index", ""),
                Arguments.of(".git/HEAD", ""),
                Arguments.of(".git/objects/ab/cdef", ""),
                Arguments.of(".git/refs/heads/config", ""),
                Arguments.of(".git/refs/heads/hooks", ""),
                Arguments.of(".git/logs/HEAD", ""),
                Arguments.of(".git/modules/lib/index", ""),
                Arguments.of(".github/workflows/ci.yml", ""),
                Arguments.of(".gitignore", ""),
                // Instructions the agents read, not run: a model writing them is the ordinary work of a session.
                Arguments.of("CLAUDE.md", ""),
                Arguments.of("GEMINI.md", ""),
                Arguments.of("docs/mcp.json", ""),
                Arguments.of("opencode.json.example", ""),
                Arguments.of("tui.json", ""),
                Arguments.of("devcontainer.json", ""),
                Arguments.of(".aider.conf.yml.example", ""),
                Arguments.of(".mcp.json.example", ""),
                Arguments.of("src/config", ""),
                Arguments.of("hooks/pre-commit", ""),
                Arguments.of("", ""));
    }

    @ParameterizedTest
    @MethodSource("defaults")
    void theDefaultsProtectWhatRunsLaterOnTheHost(String path, String entry) {
        assertEquals(
                entry,
                ProtectedPaths.defaults()
                        .check(path)
                        .map(ProtectedPaths.Protection::entry)
                        .orElse(""));
    }

    /** Each coding agent's and tool's project configuration, and what runs from it on the host. */
    static Stream<Arguments> agents() {
        return Stream.of(
                Arguments.of(
                        ".claude/settings.json", ".claude", "Claude Code runs the hooks and obeys the settings in it"),
                Arguments.of(
                        ".gemini/settings.json",
                        ".gemini",
                        "Gemini CLI starts the MCP servers and obeys the settings in it"),
                Arguments.of(
                        ".qwen/settings.json",
                        ".qwen",
                        "Qwen Code starts the MCP servers and obeys the settings in it"),
                Arguments.of(".codex/config.toml", ".codex", "Codex starts the MCP servers and obeys the config in it"),
                Arguments.of(".cursor/mcp.json", ".cursor", "Cursor starts the MCP servers and obeys the rules in it"),
                Arguments.of(
                        ".opencode/opencode.json",
                        ".opencode",
                        "opencode starts the MCP servers and loads the plugins in it"),
                Arguments.of(".mcp.json", ".mcp.json", "Claude Code starts the MCP servers it lists"),
                Arguments.of("opencode.json", "opencode.json", "opencode starts the MCP servers it lists"),
                Arguments.of("opencode.jsonc", "opencode.jsonc", "opencode starts the MCP servers it lists"),
                Arguments.of(".aider.conf.yml", ".aider.conf.yml", "aider runs the lint and test commands it sets"),
                Arguments.of(
                        ".devcontainer.json",
                        ".devcontainer.json",
                        "VS Code and the devcontainer CLI run its initializeCommand on your machine when they open the"
                                + " folder"),
                Arguments.of(
                        ".devcontainer/devcontainer.json",
                        ".devcontainer",
                        "VS Code and the devcontainer CLI run the initializeCommand of the devcontainer.json in it on"
                                + " your machine when they open the folder"));
    }

    @ParameterizedTest
    @MethodSource("agents")
    void anotherCodingAgentsProjectConfigurationIsProtectedWithWhatRunsFromIt(String path, String entry, String why) {
        assertEquals(
                Optional.of(new ProtectedPaths.Protection(entry, why)),
                ProtectedPaths.defaults().check(path));
    }

    @Test
    void anAllowedEntryAndWhatIsUnderItAreWritable() {
        ProtectedPaths paths = new ProtectedPaths(List.of(), List.of(".git/hooks", ".vscode/settings.json"));

        assertEquals(Optional.empty(), paths.check(".git/hooks/pre-commit"));
        assertEquals(Optional.empty(), paths.check(".vscode/settings.json"));
        assertEquals(Optional.of(".vscode"), paths.check(".vscode/tasks.json").map(ProtectedPaths.Protection::entry));
        assertEquals(
                Optional.of("lib/.git/hooks"),
                paths.check("lib/.git/hooks/pre-commit").map(ProtectedPaths.Protection::entry));
    }

    @Test
    void anAddedEntryIsProtectedWithItsReason() {
        ProtectedPaths paths = new ProtectedPaths(List.of("deploy/", "Makefile"), List.of());

        assertEquals(
                Optional.of(new ProtectedPaths.Protection("deploy", "you listed it among your protected paths")),
                paths.check("deploy/prod.sh"));
        assertEquals(
                Optional.of(new ProtectedPaths.Protection("Makefile", "you listed it among your protected paths")),
                paths.check("Makefile"));
        assertEquals(Optional.empty(), paths.check("Makefile.local"));
    }

    @Test
    void entriesMustStayInsideTheWorkspace() {
        assertThrows(IllegalArgumentException.class, () -> new ProtectedPaths(List.of("/etc"), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ProtectedPaths(List.of(), List.of("../x")));
        assertThrows(IllegalArgumentException.class, () -> new ProtectedPaths(List.of(), List.of(" ")));
    }

    @Test
    void describeIsOneSentence() {
        assertEquals(
                ".git/config is protected: git obeys it on your machine, and settings such as core.fsmonitor or"
                        + " core.hooksPath run commands.",
                ProtectedPaths.defaults().check(".git/config").orElseThrow().describe());
    }

    @Test
    void whatARepositorysConfigPointsGitAtIsProtectedToo(@TempDir Path temp) throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.createDirectories(root.resolve("scripts"));
        Files.writeString(
                root.resolve(".git/config"),
                "[core]\n\thooksPath = .githooks ; kept in the tree\n[include]\n\tpath = \"../team.gitconfig\"\n"
                        + "[includeIf \"gitdir:~/work/\"]\n\tpath = ~/work.gitconfig\n");
        Files.createSymbolicLink(root.resolve(".git/hooks/pre-push"), Path.of("../../scripts/push-check.sh"));
        Workspace workspace = Workspace.of(root);

        assertEquals(
                List.of(".githooks", "team.gitconfig", "scripts/push-check.sh", "", ""),
                Stream.of(".githooks/pre-commit", "team.gitconfig", "scripts/push-check.sh", "scripts/other.sh", "src")
                        .map(path -> ProtectedPaths.defaults()
                                .check(workspace, root.resolve(path))
                                .map(ProtectedPaths.Protection::entry)
                                .orElse(""))
                        .toList());
        assertEquals(
                Optional.empty(),
                new ProtectedPaths(List.of(), List.of(".githooks")).check(workspace, root.resolve(".githooks/x")));
    }

    @Test
    void whereALinkOnTheWayToAProtectedPathLeadsIsProtectedAsThePathItStandsFor(@TempDir Path temp) throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve("cfg"));
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("cfg"));
        Files.createDirectories(root.resolve(".repo/app.git/hooks"));
        Files.createDirectories(root.resolve("app"));
        Files.createSymbolicLink(root.resolve("app/.git"), Path.of("../.repo/app.git"));
        Files.createDirectories(root.resolve(".git"));
        Files.createDirectories(root.resolve("lib/hooks"));
        Files.createSymbolicLink(root.resolve("tools"), Path.of("lib"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = tools/hooks\n");
        Workspace workspace = Workspace.of(root);
        ProtectedPaths rules = ProtectedPaths.defaults();

        assertEquals(
                Optional.of(new ProtectedPaths.Protection(
                        ".vscode",
                        "VS Code runs the tasks and obeys the settings in it (cfg/tasks.json is .vscode/tasks.json"
                                + " through the link .vscode)")),
                rules.check(workspace, root.resolve("cfg/tasks.json")));
        assertEquals(
                List.of("app/.git/hooks", "", "tools/hooks", ""),
                Stream.of(".repo/app.git/hooks/pre-commit", ".repo/app.git/index", "lib/hooks/pre-commit", "lib/x")
                        .map(path -> rules.check(workspace, root.resolve(path))
                                .map(ProtectedPaths.Protection::entry)
                                .orElse(""))
                        .toList());
    }

    private static List<String> entries(ProtectedPaths rules, Path root, String... paths) {
        Workspace workspace = Workspace.of(root);
        return Stream.of(paths)
                .map(path -> rules.check(workspace, root.resolve(path))
                        .map(ProtectedPaths.Protection::entry)
                        .orElse(""))
                .toList();
    }

    @Test
    void theGitFolderAGitFilesGitdirLineNamesIsProtectedAsTheGitFolderOfThatFilesPlace(@TempDir Path temp)
            throws Exception {
        // A bare clone beside its work trees: the .git file reads gitdir: ./.bare.
        Path root = temp.toRealPath();
        for (String folder : List.of(".bare/hooks", ".bare/objects/ab", ".bare/worktrees/feature", "feature")) {
            Files.createDirectories(root.resolve(folder));
        }
        Files.writeString(root.resolve(".bare/config"), "[core]\n\tbare = true\n");
        Files.writeString(root.resolve(".bare/worktrees/feature/commondir"), "../..\n");
        Files.writeString(root.resolve(".git"), "gitdir: ./.bare\n");
        Files.writeString(root.resolve("feature/.git"), "gitdir: " + root.resolve(".bare/worktrees/feature") + "\n");

        assertEquals(
                Optional.of(new ProtectedPaths.Protection(
                        ".git/config",
                        "git obeys it on your machine, and settings such as core.fsmonitor or core.hooksPath run"
                                + " commands (.bare/config is .git/config through .git)")),
                ProtectedPaths.defaults().check(Workspace.of(root), root.resolve(".bare/config")));
        assertEquals(
                List.of(".git/hooks", ".git/worktrees/feature/commondir", "", ".git/worktrees/feature/config.worktree"),
                entries(
                        ProtectedPaths.defaults(),
                        root,
                        ".bare/hooks/pre-commit",
                        ".bare/worktrees/feature/commondir",
                        ".bare/objects/ab/cdef",
                        ".bare/worktrees/feature/config.worktree"));
        // Without the .git file, the work tree's commondir still leads git to .bare's config and hooks.
        Files.delete(root.resolve(".git"));
        assertEquals(
                List.of("feature/.git/config", "feature/.git/hooks", ""),
                entries(
                        ProtectedPaths.defaults(),
                        root,
                        ".bare/config",
                        ".bare/hooks/pre-commit",
                        ".bare/objects/ab/cdef"));
    }

    @Test
    void aHooksPathInAFileTheConfigIncludesOrInTheUsersOwnConfigIsProtected(@TempDir Path temp, @TempDir Path home)
            throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.writeString(root.resolve(".git/config"), "[include]\n\tpath = ../.gitconfig\n");
        Files.writeString(root.resolve(".gitconfig"), "[core]\n\thooksPath = .githooks\n");
        Files.createDirectories(root.resolve("lib"));
        Files.writeString(root.resolve("lib/.git"), "gitdir: ../.git/modules/lib\n");
        Files.createDirectories(root.resolve(".git/modules/lib"));
        Files.writeString(home.resolve(".gitconfig"), "[core]\n\thooksPath = hooks\n");
        ProtectedPaths rules = new ProtectedPaths(
                List.of(), List.of(), new UserGitConfig(Optional.of(home), List.of(home.resolve(".gitconfig"))));

        assertEquals(
                List.of(".gitconfig", ".githooks", "hooks", "lib/hooks", "", ""),
                entries(
                        rules,
                        root,
                        ".gitconfig",
                        ".githooks/pre-commit",
                        "hooks/pre-commit",
                        "lib/hooks/pre-commit",
                        "lib/src/hooks",
                        "src/Main.java"));
        assertEquals(
                List.of(".gitconfig", ".githooks", "", "", "", ""),
                entries(
                        ProtectedPaths.defaults(),
                        root,
                        ".gitconfig",
                        ".githooks/pre-commit",
                        "hooks/pre-commit",
                        "lib/hooks/pre-commit",
                        "lib/src/hooks",
                        "src/Main.java"));
    }

    @Test
    void aHooksPathThroughAMissingFolderAndUpProtectsThatFolderNeverTheWorkTree(@TempDir Path temp) throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = missing/..\n");

        assertEquals(
                List.of("missing", ""),
                entries(ProtectedPaths.defaults(), root, "missing/pre-commit", "src/Main.java"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = .\n");
        assertEquals(List.of("", ""), entries(ProtectedPaths.defaults(), root, "pre-commit", "src/Main.java"));
    }

    @Test
    void theUsersGitConfigFilesAreThoseGitReadsFromTheEnvironment() {
        assertEquals(
                new UserGitConfig(
                        Optional.of(Path.of("/home/u")),
                        List.of(
                                Path.of("/etc/gitconfig"),
                                Path.of("/home/u/.config/git/config"),
                                Path.of("/home/u/.gitconfig"))),
                UserGitConfig.of(Map.of("HOME", "/home/u")));
        assertEquals(
                new UserGitConfig(
                        Optional.of(Path.of("/home/u")),
                        List.of(
                                Path.of("/etc/gitconfig"),
                                Path.of("/opt/git/system.gitconfig"),
                                Path.of("/xdg/git/config"),
                                Path.of("/home/u/.gitconfig"),
                                Path.of("/home/u/dotfiles/gitconfig"))),
                UserGitConfig.of(Map.of(
                        "HOME", "/home/u",
                        "XDG_CONFIG_HOME", "/xdg",
                        "GIT_CONFIG_GLOBAL", "/home/u/dotfiles/gitconfig",
                        "GIT_CONFIG_SYSTEM", "/opt/git/system.gitconfig")));
        assertEquals(
                new UserGitConfig(Optional.empty(), List.of(Path.of("/etc/gitconfig"))),
                UserGitConfig.of(Map.of("HOME", "relative", "XDG_CONFIG_HOME", " ")));
    }
}
