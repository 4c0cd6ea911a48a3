package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProtectedLayoutTest {
    @TempDir
    Path temp;

    @TempDir
    Path elsewhere;

    private Path root;

    @BeforeEach
    void repositoryWithANestedOneASubmoduleAndAnEditorFolder() throws Exception {
        root = temp.toRealPath();
        for (String folder : List.of(
                ".git/hooks",
                ".git/objects",
                ".git/modules/libs/foo/hooks",
                "vendor/x/.git/hooks",
                "libs/foo",
                ".vscode",
                "src")) {
            Files.createDirectories(root.resolve(folder));
        }
        for (String file : List.of(
                ".git/config",
                ".git/HEAD",
                ".git/modules/libs/foo/config",
                "vendor/x/.git/config",
                ".vscode/tasks.json",
                ".vscode/settings.json",
                "src/Main.java")) {
            Files.writeString(root.resolve(file), file + "\n");
        }
        Files.writeString(root.resolve("libs/foo/.git"), "gitdir: ../../.git/modules/libs/foo\n");
    }

    private List<String> relative(List<Path> paths) {
        return paths.stream()
                .map(path -> root.relativize(path).toString())
                .sorted()
                .toList();
    }

    @Test
    void findsWhatToMountReadOnlyWhatToPinAndWhatIsMissing() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".vscode",
                        "libs/foo/.git",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(List.of(".git", "vendor", "vendor/x", "vendor/x/.git"), relative(layout.pinned()));
        assertEquals(
                List.of(".git/modules", ".git/modules/libs", ".git/modules/libs/foo", "libs", "libs/foo"),
                relative(layout.above()));
        assertEquals(
                List.of(
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".dockhand",
                        ".gemini",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen"),
                relative(layout.missing()));
        assertEquals(
                List.of(".git/commondir", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
        assertEquals(List.of(), layout.writable());
    }

    @Test
    void theUsersEntriesAddAndAllow() throws Exception {
        Files.createDirectories(root.resolve("deploy"));
        ProtectedPaths rules = new ProtectedPaths(List.of("deploy"), List.of(".git/hooks", ".vscode/settings.json"));

        ProtectedLayout layout = ProtectedLayout.scan(root, rules);

        assertEquals(
                List.of(
                        ".git/config",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".vscode",
                        "deploy",
                        "libs/foo/.git",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(List.of(".vscode/settings.json"), relative(layout.writable()));
    }

    @Test
    void aMissingHooksFolderOfAnyRepositoryIsMissingToo() throws Exception {
        Files.delete(root.resolve(".git/hooks"));
        Files.delete(root.resolve("vendor/x/.git/hooks"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".dockhand",
                        ".gemini",
                        ".git/hooks",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen",
                        "vendor/x/.git/hooks"),
                relative(layout.missing()));
    }

    @Test
    void aFingerprintSeesAPlantedHookAChangedConfigAndACreatedFolder() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        Map<String, String> before = layout.fingerprint();

        Files.writeString(root.resolve(".git/hooks/pre-commit"), "#!/bin/sh\n");
        Files.writeString(root.resolve(".git/config"), "[core]\n\tfsmonitor = touch /tmp/x\n");
        Files.createDirectories(root.resolve(".idea"));
        Files.createDirectories(root.resolve(".claude"));
        Files.writeString(root.resolve(".claude/settings.json"), "{\"hooks\": {}}\n");
        Files.writeString(root.resolve("src/Main.java"), "changed, but not protected\n");

        assertEquals(
                List.of(
                        ".claude (created)",
                        ".claude/settings.json (created)",
                        ".git/config (changed)",
                        ".git/hooks/pre-commit (created)",
                        ".idea (created)"),
                ProtectedLayout.changes(before, layout.fingerprint()));
    }

    @Test
    void aFingerprintSeesProtectedPathsTheScanDidNotFindByTheirNames() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        Map<String, String> before = layout.fingerprint();

        Files.writeString(root.resolve(".mcp.json"), "{\"mcpServers\": {}}\n");
        Files.writeString(root.resolve("lefthook.yml"), "pre-commit: {}\n");
        Files.createDirectories(root.resolve("src/.claude"));
        Files.writeString(root.resolve("src/.claude/settings.json"), "{\"hooks\": {}}\n");
        Files.createDirectories(root.resolve(".git/modules/lib/hooks"));
        Files.writeString(root.resolve(".git/modules/lib/hooks/post-checkout"), "#!/bin/sh\n");
        Files.writeString(root.resolve(".git/modules/lib/HEAD"), "ref: refs/heads/main\n");
        Files.createSymbolicLink(root.resolve(".git/modules/other"), Path.of("../../src"));
        Files.writeString(root.resolve("src/Main.java"), "changed, but not protected\n");

        assertEquals(
                List.of(
                        ".git/modules/lib/hooks (created)",
                        ".git/modules/lib/hooks/post-checkout (created)",
                        ".git/modules/other (created)",
                        ".mcp.json (created)",
                        "lefthook.yml (created)",
                        "src/.claude (created)",
                        "src/.claude/settings.json (created)"),
                ProtectedLayout.changes(before, layout.fingerprint()));
    }

    @Test
    void hookManagersFilesAndWhatTheConfigPointsAtAreReadOnlyOrKeptAbsent() throws Exception {
        Files.writeString(root.resolve(".pre-commit-config.yaml"), "repos: []\n");
        Files.writeString(
                root.resolve(".git/config"), "[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../team.cfg\n");
        Files.createDirectories(root.resolve(".githooks"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(true, relative(layout.readOnly()).containsAll(List.of(".githooks", ".pre-commit-config.yaml")));
        assertEquals(
                List.of(".git/commondir", "team.cfg", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
    }

    @Test
    void aMissingProtectedFolderTheConfigNamesIsMissingAndNotKeptAbsent() throws Exception {
        // Husky was removed, the config still points git there.
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = .husky\n");

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".dockhand",
                        ".gemini",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen"),
                relative(layout.missing()));
        assertEquals(
                List.of(".git/commondir", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
    }

    @Test
    void otherToolsFoldersAndFilesThatRunCommandsAreReadOnlyAtAnyDepth() throws Exception {
        for (String folder :
                List.of(".claude", ".gemini", ".qwen", ".codex", ".cursor", ".devcontainer", "packages/app/.cursor")) {
            Files.createDirectories(root.resolve(folder));
        }
        Files.writeString(root.resolve(".mcp.json"), "{\"mcpServers\": {}}\n");
        Files.writeString(root.resolve("packages/app/.mcp.json"), "{\"mcpServers\": {}}\n");
        Files.writeString(root.resolve("packages/app/.devcontainer.json"), "{\"image\": \"x\"}\n");
        Files.writeString(root.resolve(".aider.conf.yml"), "auto-lint: true\n");

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".aider.conf.yml",
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".gemini",
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".mcp.json",
                        ".qwen",
                        ".vscode",
                        "libs/foo/.git",
                        "packages/app/.cursor",
                        "packages/app/.devcontainer.json",
                        "packages/app/.mcp.json",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(List.of(".dockhand", ".husky", ".idea", ".opencode"), relative(layout.missing()));
    }

    @Test
    void aWorkspaceThatIsNoRepositoryKeepsAnEmptyGitFolderOut() throws Exception {
        Path plain = Files.createDirectories(temp.resolve("plain")).toRealPath();

        ProtectedLayout layout = ProtectedLayout.scan(plain, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".dockhand",
                        ".gemini",
                        ".git",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen",
                        ".vscode"),
                sortedRelative(plain, layout.missing()));
    }

    @Test
    void aProtectedLinkIsKeptAndProtectedWhereItLeadsInsideButNothingOutsideIsEverToBeMounted() throws Exception {
        Path outside = Files.createDirectories(elsewhere.toRealPath().resolve("secret"));
        Files.writeString(outside.resolve("marker"), "host only\n");
        Files.createSymbolicLink(root.resolve(".mcp.json"), outside.resolve("marker"));
        Files.createDirectories(root.resolve("sub"));
        Files.createSymbolicLink(root.resolve("sub/lefthook.yml"), outside);
        Files.createDirectories(root.resolve("conf"));
        Files.createSymbolicLink(root.resolve(".dockhand"), Path.of("conf"));
        Files.delete(root.resolve(".git/config"));
        Files.writeString(root.resolve("git.cfg"), "[core]\n");
        Files.createSymbolicLink(root.resolve(".git/config"), Path.of("../git.cfg"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".dockhand",
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".mcp.json",
                        ".vscode",
                        "conf",
                        "git.cfg",
                        "libs/foo/.git",
                        "sub/lefthook.yml",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(
                List.of(
                        new ProtectedLayout.Link(
                                root.resolve(".dockhand"), Path.of("conf"), Optional.of(root.resolve("conf"))),
                        new ProtectedLayout.Link(
                                root.resolve(".git/config"),
                                Path.of("../git.cfg"),
                                Optional.of(root.resolve("git.cfg"))),
                        new ProtectedLayout.Link(
                                root.resolve(".mcp.json"), outside.resolve("marker"), Optional.empty()),
                        new ProtectedLayout.Link(root.resolve("sub/lefthook.yml"), outside, Optional.empty())),
                layout.links().stream()
                        .sorted(Comparator.comparing(ProtectedLayout.Link::path))
                        .toList());
        assertEquals(
                List.of(
                        ".claude",
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".gemini",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen"),
                relative(layout.missing()));
    }

    @Test
    void everyFolderAboveAProtectedPathIsPinnedSoNoneCanBeMovedAside() throws Exception {
        Files.createDirectories(root.resolve("scripts"));
        Files.writeString(root.resolve("scripts/pre-commit"), "#!/bin/sh\n");
        Files.createSymbolicLink(root.resolve(".git/hooks/pre-commit"), Path.of("../../scripts/pre-commit"));
        Files.createDirectories(root.resolve("pkg/app/.claude"));
        Files.writeString(root.resolve("pkg/lefthook.yml"), "pre-commit: {}\n");
        Files.createDirectories(root.resolve("tools/git/hooks"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = tools/git/hooks\n");

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".git/modules",
                        ".git/modules/libs",
                        ".git/modules/libs/foo",
                        "libs",
                        "libs/foo",
                        "pkg",
                        "pkg/app",
                        "scripts",
                        "tools",
                        "tools/git"),
                relative(layout.above()));
    }

    @Test
    void aProtectedLinkThatLeadsNowhereYetHasItsTargetKeptAbsent() throws Exception {
        Files.delete(root.resolve(".vscode/tasks.json"));
        Files.delete(root.resolve(".vscode/settings.json"));
        Files.delete(root.resolve(".vscode"));
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("cfg/editor"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(".git/commondir", "cfg/editor", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
        assertEquals(
                List.of(new ProtectedLayout.Link(
                        root.resolve(".vscode"), Path.of("cfg/editor"), Optional.of(root.resolve("cfg/editor")))),
                layout.links());
    }

    @Test
    void aProtectedFoldersLinkToAMissingFolderBesideItHasAPlaceholderThereSoAnApprovedWriteStays() throws Exception {
        for (String file : List.of(".vscode/tasks.json", ".vscode/settings.json", ".vscode")) {
            Files.delete(root.resolve(file));
        }
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("cfg"));
        Files.createSymbolicLink(root.resolve(".claude"), Path.of("./agents/../claude"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".codex",
                        ".cursor",
                        ".devcontainer",
                        ".dockhand",
                        ".gemini",
                        ".husky",
                        ".idea",
                        ".opencode",
                        ".qwen",
                        "cfg"),
                relative(layout.missing()));
        assertEquals(
                List.of(".git/commondir", "agents", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
    }

    @Test
    void aDanglingLinkThatGoesUpAfterAMissingFolderLeadsToThatFolderNeverToWhatExists() throws Exception {
        for (String file : List.of(".vscode/tasks.json", ".vscode/settings.json", ".vscode")) {
            Files.delete(root.resolve(file));
        }
        // The kernel resolves missing/.. only once missing exists; read lexically it is src, or the workspace.
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("missing/../src"));
        Files.createSymbolicLink(root.resolve(".dockhand"), Path.of("gone/.."));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(".git/commondir", "gone", "missing", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
        assertEquals(
                List.of(
                        new ProtectedLayout.Link(
                                root.resolve(".dockhand"), Path.of("gone/.."), Optional.of(root.resolve("gone"))),
                        new ProtectedLayout.Link(
                                root.resolve(".vscode"),
                                Path.of("missing/../src"),
                                Optional.of(root.resolve("missing")))),
                layout.links().stream()
                        .sorted(Comparator.comparing(ProtectedLayout.Link::path))
                        .toList());
    }

    @Test
    void aProtectedLinkToAFolderThatHoldsItProtectsTheLinkAloneAndSaysSo() throws Exception {
        for (String file : List.of(".vscode/tasks.json", ".vscode/settings.json", ".vscode")) {
            Files.delete(root.resolve(file));
        }
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("."));
        Files.createDirectories(root.resolve("pkg"));
        Files.createSymbolicLink(root.resolve("pkg/.claude"), Path.of("."));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".vscode",
                        "libs/foo/.git",
                        "pkg/.claude",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(
                List.of(
                        new ProtectedLayout.Link(root.resolve(".vscode"), Path.of("."), Optional.empty()),
                        new ProtectedLayout.Link(root.resolve("pkg/.claude"), Path.of("."), Optional.empty())),
                layout.links().stream()
                        .sorted(Comparator.comparing(ProtectedLayout.Link::path))
                        .toList());
        assertEquals(
                List.of(
                        ".vscode is a link to the top of the workspace, a folder that holds it: only the link is"
                                + " protected, not the files in that folder.",
                        "pkg/.claude is a link to pkg, a folder that holds it: only the link is protected, not the"
                                + " files in that folder."),
                layout.warnings().stream().sorted().toList());
    }

    @Test
    void aSubmodulesHooksAndConfigPreparedAfterTheScanMustStayAbsentAsMustALinkInModules() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        // What a model prepares for git submodule update --init to take on the host, hooks and all.
        for (String folder : List.of(
                ".git/modules/lib/hooks", ".git/modules/lib/objects", ".git/modules/libs/foo/modules/deep/hooks")) {
            Files.createDirectories(root.resolve(folder));
        }
        Files.writeString(root.resolve(".git/modules/lib/hooks/post-checkout"), "#!/bin/sh\n");
        Files.writeString(root.resolve(".git/modules/lib/config"), "[core]\n");
        Files.writeString(root.resolve(".git/modules/lib/HEAD"), "ref: refs/heads/main\n");
        Files.createDirectories(root.resolve("evil/hooks"));
        Files.createSymbolicLink(root.resolve(".git/modules/other"), Path.of("../../evil"));
        // A repository that had no modules folder at the scan.
        Files.createDirectories(root.resolve("vendor/x/.git/modules/y/hooks"));

        assertEquals(
                List.of(
                        ".git/commondir",
                        ".git/modules/lib/config",
                        ".git/modules/lib/hooks",
                        ".git/modules/libs/foo/modules/deep/hooks",
                        ".git/modules/other",
                        "vendor/x/.git/commondir",
                        "vendor/x/.git/modules/y/hooks"),
                relative(layout.absent().paths()));
    }

    @Test
    void aModulesFolderWithMoreFoldersThanALookCountsIsUncheckedWithWhyAndTheRestStillFound() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, List.of(root), ProtectedPaths.defaults(), 30);
        // A submodule's git folder behind 40 folders named as loose objects are, then one at the top of vendor/x's.
        Path deep = root.resolve(".git/modules/lib");
        for (int i = 0; i < 20; i++) {
            deep = deep.resolve("objects/00");
        }
        Files.createDirectories(deep.resolve("hooks"));
        Files.writeString(deep.resolve("hooks/post-checkout"), "#!/bin/sh\ntouch MARK\n");
        Files.createDirectories(root.resolve("vendor/x/.git/modules/y/hooks"));

        ProtectedLayout.Absent absent = layout.absent();

        assertEquals(
                List.of(".git/commondir", "vendor/x/.git/commondir", "vendor/x/.git/modules/y/hooks"),
                relative(absent.paths()));
        assertEquals(
                List.of(new ProtectedLayout.Unchecked(
                        root.resolve(".git/modules"),
                        "could not be checked: it holds more than 30 folders; look at it before running git"
                                + " submodule commands")),
                absent.unchecked());
    }

    @Test
    void aScanThatStopsAtItsFolderCountSaysSoAndTheFingerprintStopsWithIt() throws Exception {
        for (int i = 0; i < 40; i++) {
            Files.createDirectories(root.resolve("build/out" + i));
        }

        ProtectedLayout layout = ProtectedLayout.scan(root, List.of(root), ProtectedPaths.defaults(), 30);

        assertEquals(
                List.of("stopped looking through " + root + " for protected paths after 30 folders: a git repository"
                        + " or settings folder further in is not protected this session (neither read-only in the"
                        + " sandbox nor watched without one); start Dockhand in a smaller folder."),
                layout.warnings());
        // Made after the scan, so only the fingerprint's own walk finds them: it walks no further than the scan.
        for (int i = 0; i < 40; i++) {
            Files.createDirectories(root.resolve("build/out" + i + "/.claude"));
        }
        assertEquals(
                List.of(40L, true),
                List.of(
                        claudeFolders(ProtectedFingerprint.of(root, ProtectedPaths.defaults(), List.of(), 1_000)),
                        claudeFolders(ProtectedFingerprint.of(root, ProtectedPaths.defaults(), List.of(), 30)) < 30));
    }

    private static long claudeFolders(Map<String, String> fingerprint) {
        return fingerprint.keySet().stream()
                .filter(path -> path.endsWith("/.claude"))
                .count();
    }

    @Test
    void aModulesFolderTheScanCannotListIsReadOnlyWholeAndSaid() throws Exception {
        Assumptions.assumeFalse(
                "root".equals(System.getProperty("user.name")), "root lists any folder, whatever its mode");
        // Left by an earlier session's command: git enters it by name all the same.
        Path evil =
                Files.createDirectories(root.resolve(".git/modules/evil/hooks")).getParent();
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("--x--x--x"));
        try {
            ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

            assertEquals(
                    true,
                    relative(layout.readOnly()).contains(".git/modules/evil"),
                    layout.readOnly().toString());
            assertEquals(
                    List.of(".git/modules/evil could not be read (AccessDeniedException), so it is read-only in the"
                            + " sandbox as a whole."),
                    layout.warnings());
        } finally {
            Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aGitLinkHasTheHooksAndConfigOfTheFolderItLeadsToProtected() throws Exception {
        Files.createDirectories(root.resolve(".repo/projects/app.git/hooks"));
        Files.createDirectories(root.resolve(".repo/projects/app.git/objects"));
        Files.writeString(root.resolve(".repo/projects/app.git/config"), "[core]\n");
        Files.createDirectories(root.resolve("app"));
        Files.createSymbolicLink(root.resolve("app/.git"), Path.of("../.repo/projects/app.git"));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(".repo/projects/app.git/config", ".repo/projects/app.git/hooks", "app/.git"),
                relative(layout.readOnly()).stream()
                        .filter(path -> path.startsWith(".repo") || path.startsWith("app"))
                        .toList());
        assertEquals(
                List.of(".repo", ".repo/projects", ".repo/projects/app.git"),
                relative(layout.pinned()).stream()
                        .filter(path -> path.startsWith(".repo") || path.startsWith("app"))
                        .toList());
        assertEquals(
                List.of("app"),
                relative(layout.above()).stream()
                        .filter(path -> path.startsWith(".repo") || path.startsWith("app"))
                        .toList());
        assertEquals(
                List.of(new ProtectedLayout.Link(
                        root.resolve("app/.git"),
                        Path.of("../.repo/projects/app.git"),
                        Optional.of(root.resolve(".repo/projects/app.git")))),
                layout.links());
    }

    /**
     * A bare clone beside its work trees, a common layout: {@code proj/.git} is a file reading {@code gitdir: ./.bare},
     * and the work tree {@code proj/feature} is linked in {@code .bare/worktrees/feature}, whose {@code commondir}
     * leads back to {@code .bare}.
     */
    private Path bareCloneWithAWorkTree() throws Exception {
        Path proj = root.resolve("proj");
        for (String folder : List.of(".bare/hooks", ".bare/objects/ab", ".bare/worktrees/feature", "feature/src")) {
            Files.createDirectories(proj.resolve(folder));
        }
        Files.writeString(proj.resolve(".bare/config"), "[core]\n\tbare = true\n");
        Files.writeString(proj.resolve(".bare/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(proj.resolve(".bare/worktrees/feature/commondir"), "../..\n");
        Files.writeString(proj.resolve(".bare/worktrees/feature/gitdir"), proj.resolve("feature/.git") + "\n");
        Files.writeString(proj.resolve(".git"), "gitdir: ./.bare\n");
        Files.writeString(proj.resolve("feature/.git"), "gitdir: " + proj.resolve(".bare/worktrees/feature") + "\n");
        return proj;
    }

    private List<String> under(String folder, List<Path> paths) {
        return relative(paths).stream().filter(path -> path.startsWith(folder)).toList();
    }

    @Test
    void aGitFilesGitdirLineHasTheHooksAndConfigOfTheFolderItNamesProtectedAndThatFolderPinned() throws Exception {
        bareCloneWithAWorkTree();

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        "proj/.bare/config",
                        "proj/.bare/hooks",
                        "proj/.bare/worktrees/feature/commondir",
                        "proj/.bare/worktrees/feature/gitdir",
                        "proj/.git",
                        "proj/feature/.git"),
                under("proj", layout.readOnly()));
        assertEquals(
                List.of("proj", "proj/.bare", "proj/.bare/worktrees", "proj/.bare/worktrees/feature"),
                under("proj", layout.pinned()));
        assertEquals(
                List.of("proj/.bare/commondir"), under("proj", layout.absent().paths()));
        assertEquals(List.of("proj/.bare", "proj/.bare/worktrees/feature"), relative(layout.gitFolders()));
    }

    @Test
    void aWorkTreeOfARepositoryOutsideTheWorkspaceHasTheHooksPathOfThatRepositorysConfigProtected() throws Exception {
        Path main = elsewhere.toRealPath().resolve("main");
        Files.createDirectories(main.resolve(".git/worktrees/wt"));
        Files.writeString(main.resolve(".git/config"), "[core]\n\thooksPath = .githooks\n");
        Files.writeString(main.resolve(".git/worktrees/wt/commondir"), "../..\n");
        Files.createDirectories(root.resolve("wt/.githooks"));
        Files.writeString(root.resolve("wt/.git"), "gitdir: " + main.resolve(".git/worktrees/wt") + "\n");

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(List.of("wt/.git", "wt/.githooks"), under("wt", layout.readOnly()));
    }

    @Test
    void aHooksPathInAnIncludedFileOrInConfigWorktreeIsProtectedWhateverTheIncludesCondition() throws Exception {
        Files.writeString(root.resolve(".git/config"), "[core]\n\tbare = false\n[include]\n\tpath = ../.gitconfig\n");
        Files.writeString(
                root.resolve(".gitconfig"), "[includeIf \"onbranch:release\"]\n\tpath = shared/team.gitconfig\n");
        Files.createDirectories(root.resolve("shared"));
        // Settings may follow a section's header on its line.
        Files.writeString(root.resolve("shared/team.gitconfig"), "[core] hooksPath = .githooks\n");
        Files.createDirectories(root.resolve(".githooks"));
        Files.writeString(root.resolve("vendor/x/.git/config.worktree"), "[core]\n\thooksPath = ci/hooks\n");

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".gitconfig",
                        ".githooks",
                        ".vscode",
                        "libs/foo/.git",
                        "shared/team.gitconfig",
                        "vendor/x/.git/config",
                        "vendor/x/.git/config.worktree",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(
                List.of(".git/commondir", "vendor/x/.git/commondir", "vendor/x/ci/hooks"),
                relative(layout.absent().paths()));
    }

    @Test
    void theUsersOwnGitConfigsHooksPathIsProtectedInEveryRepositoryRelativeToItsWorkTree(@TempDir Path home)
            throws Exception {
        Files.createDirectories(root.resolve(".githooks"));
        Files.writeString(
                home.resolve(".gitconfig"),
                "[core]\n\thooksPath = .githooks\n[include]\n\tpath = ~/.config/hooks.gitconfig\n");
        Files.createDirectories(home.resolve(".config"));
        Files.writeString(
                home.resolve(".config/hooks.gitconfig"), "[core]\n\thooksPath = " + root.resolve("ci/hooks") + "\n");
        ProtectedPaths rules = new ProtectedPaths(
                List.of(),
                List.of(),
                new UserGitConfig(Optional.of(home), List.of(home.resolve(".gitconfig"), home.resolve("missing"))));

        ProtectedLayout layout = ProtectedLayout.scan(root, rules);

        assertEquals(true, relative(layout.readOnly()).contains(".githooks"));
        assertEquals(
                List.of(
                        ".git/commondir",
                        "ci/hooks",
                        "libs/foo/.githooks",
                        "vendor/x/.git/commondir",
                        "vendor/x/.githooks"),
                relative(layout.absent().paths()));
    }

    @Test
    void aConfigWithALatinOneByteOrAByteOrderMarkIsStillReadAsGitReadsIt(@TempDir Path home) throws Exception {
        Files.createDirectories(root.resolve(".githooks"));
        Files.createDirectories(root.resolve("ci/hooks"));
        // git takes both: a name saved in Latin-1 by an old editor, a byte-order mark from one on Windows.
        Files.write(
                home.resolve(".gitconfig"),
                "[user]\n\tname = J\u00fcrgen\n[core]\n\thooksPath = .githooks\n"
                        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Files.writeString(root.resolve(".git/config"), "\uFEFF[core]\n\thooksPath = ci/hooks\n");
        ProtectedPaths rules = new ProtectedPaths(
                List.of(), List.of(), new UserGitConfig(Optional.of(home), List.of(home.resolve(".gitconfig"))));

        ProtectedLayout layout = ProtectedLayout.scan(root, rules);

        List<String> readOnly = relative(layout.readOnly());
        assertEquals(List.of(true, true), List.of(readOnly.contains(".githooks"), readOnly.contains("ci/hooks")));
    }

    @Test
    void theUsersOwnGitConfigKeptInTheWorkspaceIsProtected(@TempDir Path home) throws Exception {
        // A dotfiles repository as the workspace, ~/.gitconfig a link into it (GNU Stow).
        Files.createDirectories(root.resolve("git"));
        Files.writeString(root.resolve("git/.gitconfig"), "[user]\n\tname = me\n");
        Files.createSymbolicLink(home.resolve(".gitconfig"), root.resolve("git/.gitconfig"));
        ProtectedPaths rules = new ProtectedPaths(
                List.of(), List.of(), new UserGitConfig(Optional.of(home), List.of(home.resolve(".gitconfig"))));

        ProtectedLayout layout = ProtectedLayout.scan(root, rules);

        assertEquals(
                true,
                relative(layout.readOnly()).contains("git/.gitconfig"),
                layout.readOnly().toString());
    }

    @Test
    void aConfigOfThousandsOfHooksPathsIsReadOnlyToItsFirstThousandAndSaid() throws Exception {
        StringBuilder config = new StringBuilder("[core]\n");
        for (int i = 0; i < 5000; i++) {
            config.append("\thooksPath = h").append(i).append('\n');
        }
        Files.writeString(root.resolve(".git/config"), config);

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        List<String> absent = relative(layout.absent().paths());
        assertEquals(
                List.of(true, false),
                List.of(
                        absent.contains("h" + (GitPointers.MAX_SETTINGS - 1)),
                        absent.contains("h" + GitPointers.MAX_SETTINGS)));
        assertEquals(
                true,
                layout.warnings()
                        .contains(".git/config names more than 1000 hook folders and included files; only the"
                                + " first 1000 are protected."),
                layout.warnings().toString());
    }

    @Test
    void aPointerThatLeadsThroughAMissingFolderAndUpIsThatFolderAndOneThatHoldsTheRepositoryIsToldNotProtected()
            throws Exception {
        // Read lexically, missing/.. is the work tree; git's open fails until missing is made, then leads into it.
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = missing/..\n");
        Files.writeString(root.resolve("vendor/x/.git/config"), "[core]\n\thooksPath = .\n");
        Files.createSymbolicLink(root.resolve(".git/hooks/post-merge"), Path.of("../.."));

        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());

        assertEquals(
                List.of(".git/commondir", "missing", "vendor/x/.git/commondir"),
                relative(layout.absent().paths()));
        assertEquals(
                List.of(
                        ".git/config",
                        ".git/hooks",
                        ".git/modules/libs/foo/config",
                        ".git/modules/libs/foo/hooks",
                        ".vscode",
                        "libs/foo/.git",
                        "vendor/x/.git/config",
                        "vendor/x/.git/hooks"),
                relative(layout.readOnly()));
        assertEquals(
                List.of(
                        "core.hooksPath in vendor/x/.git/config names vendor/x, a folder that holds the repository at"
                                + " vendor/x: it is not protected, or every file in it would need your yes.",
                        "the hook .git/hooks/post-merge names the top of the workspace, a folder that holds the"
                                + " repository at the top of the workspace: it is not protected, or every file in it"
                                + " would need your yes."),
                layout.warnings().stream().sorted().toList());
    }

    private static List<String> sortedRelative(Path from, List<Path> paths) {
        return paths.stream()
                .map(path -> from.relativize(path).toString())
                .sorted()
                .toList();
    }
}
