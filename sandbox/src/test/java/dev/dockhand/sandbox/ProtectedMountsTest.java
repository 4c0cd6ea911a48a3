package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.Mount;
import dev.dockhand.core.FileTrees;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mounts planned for the protected paths, and what is put back or removed on the host after a command. */
class ProtectedMountsTest {
    @TempDir
    Path temp;

    private Path root;
    private Path secret;
    private ProtectedMounts mounts;

    @BeforeEach
    void workspace() throws Exception {
        root = Files.createDirectories(temp.toRealPath().resolve("project"));
        secret = Files.createDirectories(temp.toRealPath().resolve("secret"));
        Files.writeString(secret.resolve("marker"), "host only\n");
        for (String folder : List.of(".git/hooks", "pkg/app/.vscode", "cfg", ".dockhand", ".husky", ".idea")) {
            Files.createDirectories(root.resolve(folder));
        }
        Files.writeString(root.resolve(".git/config"), "[include]\n\tpath = ../conf/team.cfg\n");
        for (String agent : List.of(".claude", ".gemini", ".qwen", ".codex", ".cursor")) {
            Files.createDirectories(root.resolve(agent));
        }
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("cfg"));
        Files.createSymbolicLink(root.resolve(".mcp.json"), secret.resolve("marker"));
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        mounts = new ProtectedMounts(() -> List.of(layout));
    }

    private List<String> mounted() {
        return mounts.mounts().stream()
                .map(mount -> (mount.getReadOnly() ? "ro " : "rw ") + root.relativize(Path.of(mount.getSource())))
                .sorted()
                .toList();
    }

    @Test
    void onlyRealPathsAreMountedAndEachFolderAboveAProtectedOneIsPinned() {
        List<Mount> planned = mounts.mounts();

        assertEquals(
                List.of(
                        "ro .claude",
                        "ro .codex",
                        "ro .cursor",
                        "ro .devcontainer",
                        "ro .dockhand",
                        "ro .gemini",
                        "ro .git/config",
                        "ro .git/hooks",
                        "ro .husky",
                        "ro .idea",
                        "ro .opencode",
                        "ro .qwen",
                        "ro cfg",
                        "ro pkg/app/.vscode",
                        "rw .git",
                        "rw pkg",
                        "rw pkg/app"),
                mounted());
        assertTrue(planned.stream().allMatch(mount -> mount.getSource().equals(mount.getTarget())));
    }

    @Test
    void aReplacementContainerLeavesOutAProtectedPathThatBecameALink() throws Exception {
        mounts.mounts();
        // What a command did before the container died: the folder moved aside, a link in its place.
        Files.move(root.resolve("pkg"), root.resolve("pkg2"));
        Files.createDirectories(root.resolve("pkg/app"));
        Files.createSymbolicLink(root.resolve("pkg/app/.vscode"), secret);

        List<String> again = mounted();

        assertFalse(again.contains("ro pkg/app/.vscode"), again.toString());
        assertTrue(again.contains("rw pkg/app"), again.toString());
    }

    @Test
    void aReplacementContainerNeverMountsAFolderACommandPutInPlaceOfALinkTheScanFound() throws Exception {
        List<String> first = mounted();
        // What a command did before the container died: the link replaced by a folder, a file planted in it.
        Files.delete(root.resolve(".vscode"));
        Files.createDirectories(root.resolve(".vscode"));
        Files.writeString(root.resolve(".vscode/tasks.json"), "{}\n");

        List<String> again = mounted();

        assertEquals(first, again);
        assertFalse(again.contains("ro .vscode"), again.toString());
    }

    /** A sweep on this machine, as at the end of the session, with its lists sorted. */
    private ProtectedSweep.Outcome sweep() {
        ProtectedSweep.Outcome outcome = ProtectedSweep.onHost(mounts.steps(WorkspaceTransport.MOUNT));
        return new ProtectedSweep.Outcome(
                outcome.removed().stream().sorted().toList(),
                outcome.restored().stream().sorted().toList(),
                outcome.failed());
    }

    @Test
    void aLinkACommandReplacedIsPutBack() throws Exception {
        Files.delete(root.resolve(".vscode"));
        Files.createDirectories(root.resolve(".vscode"));
        Files.writeString(root.resolve(".vscode/tasks.json"), "{}\n");
        Files.delete(root.resolve(".mcp.json"));

        assertEquals(new ProtectedSweep.Outcome(List.of(), List.of(".mcp.json", ".vscode"), List.of()), sweep());
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(root.resolve(".vscode")));
        assertEquals(secret.resolve("marker"), Files.readSymbolicLink(root.resolve(".mcp.json")));
        assertEquals(ProtectedSweep.Outcome.NONE, sweep());
    }

    @Test
    void theStepsAreFoundByLookingAndLinksArePutBackOnlyWithTheMountTransport() throws Exception {
        Files.delete(root.resolve(".vscode"));
        Files.createDirectories(root.resolve(".vscode"));
        Files.writeString(root.resolve(".git/commondir"), "../elsewhere\n");

        assertEquals(
                List.of(
                        new ProtectedSweep.PutBack(root.resolve(".vscode"), Path.of("cfg"), ".vscode"),
                        new ProtectedSweep.Remove(root.resolve(".git/commondir"), ".git/commondir")),
                mounts.steps(WorkspaceTransport.MOUNT));
        assertEquals(
                List.of(new ProtectedSweep.Remove(root.resolve(".git/commondir"), ".git/commondir")),
                mounts.steps(WorkspaceTransport.SYNC));
        assertTrue(Files.isDirectory(root.resolve(".vscode"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(root.resolve(".git/commondir")));
    }

    @Test
    void aLinkPlantedOnTheWayToAPathThatMustStayAbsentIsRemovedNotWhatItLeadsTo() throws Exception {
        Files.writeString(secret.resolve("team.cfg"), "the user's own\n");
        Files.createSymbolicLink(root.resolve("conf"), secret);

        assertEquals(new ProtectedSweep.Outcome(List.of("conf"), List.of(), List.of()), sweep());
        assertFalse(Files.exists(root.resolve("conf"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("the user's own\n", Files.readString(secret.resolve("team.cfg")));

        Files.createDirectories(root.resolve("conf"));
        Files.writeString(root.resolve("conf/team.cfg"), "[core]\n\tfsmonitor = touch MARK\n");
        assertEquals(new ProtectedSweep.Outcome(List.of("conf/team.cfg"), List.of(), List.of()), sweep());
        assertEquals(List.of(), FileTrees.files(root.resolve("conf"), 10));
    }

    @Test
    void noPinOpensWhatAReadOnlyFolderAboveItCloses() throws Exception {
        Files.createDirectories(root.resolve("deploy/x/.git/hooks"));
        Files.createDirectories(root.resolve("cfg/sub/.claude"));
        ProtectedLayout layout = ProtectedLayout.scan(root, new ProtectedPaths(List.of("deploy"), List.of()));
        mounts = new ProtectedMounts(() -> List.of(layout));

        assertEquals(
                List.of("ro cfg", "ro cfg/sub/.claude", "ro deploy"),
                mounted().stream()
                        .filter(mount -> mount.contains("deploy") || mount.contains("cfg"))
                        .toList());
    }

    @Test
    void aLinkTheScanFoundOnTheWayToAPathThatMustStayAbsentIsKeptAndWhereItLeadsKeptAbsent() throws Exception {
        Files.createDirectories(root.resolve("shared"));
        Files.createSymbolicLink(root.resolve("conf"), Path.of("shared/settings"));
        Files.createDirectories(root.resolve("shared/settings"));
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        mounts = new ProtectedMounts(() -> List.of(layout));
        Files.writeString(root.resolve("shared/settings/team.cfg"), "[core]\n\tfsmonitor = touch MARK\n");

        assertEquals(new ProtectedSweep.Outcome(List.of("shared/settings/team.cfg"), List.of(), List.of()), sweep());
        assertEquals(Path.of("shared/settings"), Files.readSymbolicLink(root.resolve("conf")));
    }

    @Test
    void aSubmodulesHooksAndConfigACommandPreparedAreRemovedAsIsALinkInModules() throws Exception {
        // What git submodule update --init on the host would take as lib's git folder, hooks and all.
        Files.createDirectories(root.resolve(".git/modules/lib/hooks"));
        Files.writeString(root.resolve(".git/modules/lib/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(root.resolve(".git/modules/lib/config"), "[core]\n");
        Files.writeString(root.resolve(".git/modules/lib/hooks/post-checkout"), "#!/bin/sh\n");
        Files.createDirectories(root.resolve("stash/hooks"));
        Files.createSymbolicLink(root.resolve(".git/modules/other"), Path.of("../../stash"));

        assertEquals(
                new ProtectedSweep.Outcome(
                        List.of(".git/modules/lib/config", ".git/modules/lib/hooks", ".git/modules/other"),
                        List.of(),
                        List.of()),
                sweep());
        assertEquals(
                List.of(".git/modules/lib/HEAD", "stash/hooks"),
                List.of(".git/modules/lib/HEAD", ".git/modules/lib/hooks", "stash/hooks").stream()
                        .filter(path -> Files.exists(root.resolve(path), LinkOption.NOFOLLOW_LINKS))
                        .toList());
        assertEquals(ProtectedSweep.Outcome.NONE, sweep());
    }

    @Test
    void aModulesFolderTooLargeToCheckIsReportedAtEverySweepWhileTheRestIsStillRemoved() throws Exception {
        ProtectedLayout layout = ProtectedLayout.scan(root, List.of(root), ProtectedPaths.defaults(), 40);
        mounts = new ProtectedMounts(() -> List.of(layout));
        // A submodule's git folder with a hook, behind more folders than a look counts (40 here, 200,000 in a session).
        Path deep = root.resolve(".git/modules/lib");
        for (int i = 0; i < 30; i++) {
            deep = deep.resolve("objects/00");
        }
        Files.createDirectories(deep.resolve("hooks"));
        Files.writeString(deep.resolve("hooks/post-checkout"), "#!/bin/sh\ntouch MARK\n");
        Files.writeString(root.resolve(".git/commondir"), "../stash\n");
        String unchecked =
                ".git/modules (could not be checked: it holds more than 40 folders; look at it before running"
                        + " git submodule commands)";

        ProtectedSweep.Outcome first = sweep();

        assertEquals(new ProtectedSweep.Outcome(List.of(".git/commondir"), List.of(), List.of(unchecked)), first);
        assertEquals(new ProtectedSweep.Outcome(List.of(), List.of(), List.of(unchecked)), sweep());
        assertEquals(
                List.of(
                        "Removed .git/commondir, which the command created: git would take its config and hooks from"
                                + " there on the user's machine. Do not work around it; tell the user.",
                        "Could not put back or remove " + unchecked + ", protected paths the command changed: git or"
                                + " an editor on the user's machine may run what is there now. Tell the user to look at"
                                + " them before using git or an editor in this project."),
                first.notices("the command"));
        // Left where it is, and said: the look did not reach it.
        assertTrue(Files.exists(deep.resolve("hooks/post-checkout")));
    }

    @Test
    void aMissingFolderTheConfigNamesGetsAPlaceholderNoSweepRemovesAndThatStaysWhenTheUserFilledIt() throws Exception {
        // Husky was removed, the config still points git there.
        Files.delete(root.resolve(".husky"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = .husky\n");
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        mounts = new ProtectedMounts(() -> List.of(layout));

        List<String> mounted = mounted();
        List<ProtectedSweep.Step> before = mounts.steps(WorkspaceTransport.MOUNT);
        // The user runs "npx husky init" on this machine while the session runs.
        Files.writeString(root.resolve(".husky/pre-commit"), "npm test\n");
        ProtectedSweep.Outcome swept = sweep();
        mounts.removePlaceholders();

        assertTrue(mounted.contains("ro .husky"), mounted.toString());
        assertEquals(List.of(), before);
        assertEquals(ProtectedSweep.Outcome.NONE, swept);
        assertEquals("npm test\n", Files.readString(root.resolve(".husky/pre-commit")));
    }

    @Test
    void anEmptyPlaceholderOverAFolderTheConfigNamesIsRemovedAtTheEnd() throws Exception {
        Files.delete(root.resolve(".husky"));
        Files.writeString(root.resolve(".git/config"), "[core]\n\thooksPath = .husky\n");
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        mounts = new ProtectedMounts(() -> List.of(layout));
        mounts.mounts();

        assertTrue(Files.isDirectory(root.resolve(".husky")));
        mounts.removePlaceholders();
        assertFalse(Files.exists(root.resolve(".husky"), LinkOption.NOFOLLOW_LINKS));
    }
}
