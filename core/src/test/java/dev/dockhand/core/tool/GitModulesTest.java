package dev.dockhand.core.tool;

import static dev.dockhand.core.testing.GitRepositories.git;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The look into a git folder's {@code modules} for a submodule's hooks and config prepared there: it counts folders up
 * to a limit, leaving loose-object folders out, and says when it could not look at all of it.
 */
class GitModulesTest {
    @TempDir
    Path temp;

    private Path git;
    private GitModules modules;
    private List<Path> known;

    @BeforeEach
    void aRepositoryWithOneSubmodule() throws Exception {
        git = temp.toRealPath().resolve(".git");
        for (String folder : List.of("modules/lib/hooks", "modules/lib/objects/pack", "modules/lib/refs/heads")) {
            Files.createDirectories(git.resolve(folder));
        }
        Files.writeString(git.resolve("modules/lib/config"), "[core]\n");
        modules = new GitModules(git, ".git", Set.of());
        known = List.of(git.resolve("modules/lib/config"), git.resolve("modules/lib/hooks"));
    }

    /** {@code .git/modules/NAME} followed by {@code depth} pairs {@code objects/00}: named as loose objects are. */
    private Path chain(String name, int depth) {
        Path folder = git.resolve("modules").resolve(name);
        for (int i = 0; i < depth; i++) {
            folder = folder.resolve("objects/00");
        }
        return folder;
    }

    @Test
    void aHookBehindTheFolderLimitIsReportedAsUncheckedNeverSilentlyMissed() throws Exception {
        // A submodule named lib2/objects/00/.../objects/00: its loose-object names do not make its folders free.
        Path hooks = Files.createDirectories(chain("lib2", 20).resolve("hooks"));
        Files.writeString(hooks.resolve("post-checkout"), "#!/bin/sh\ntouch MARK\n");

        assertEquals(
                new GitModules.Look(List.of(), 21, Optional.of("it holds more than 20 folders")),
                modules.appeared(ProtectedPaths.defaults(), known, 20));
        // With room for it the same look finds the hooks: modules, lib and its 5 folders, lib2, 40 in the chain, hooks.
        assertEquals(
                new GitModules.Look(List.of(hooks), 49, Optional.empty()),
                modules.appeared(ProtectedPaths.defaults(), known, 1_000));
    }

    @Test
    void paddingBesideAPreparedSubmoduleMakesTheLookUncheckedWhicheverIsListedFirst() throws Exception {
        for (int i = 0; i < 30; i++) {
            Files.createDirectories(git.resolve("modules/pad/d" + i));
        }
        Files.createDirectories(git.resolve("modules/evil/hooks"));
        Files.writeString(git.resolve("modules/evil/hooks/post-checkout"), "#!/bin/sh\ntouch MARK\n");

        assertEquals(
                Optional.of("it holds more than 20 folders"),
                modules.appeared(ProtectedPaths.defaults(), known, 20).unchecked());
    }

    @Test
    void looseObjectFoldersThatHoldOnlyFilesAreNotCountedButTheirFilesAreLookedAt() throws Exception {
        for (int i = 0; i < 256; i++) {
            Path fanOut = Files.createDirectories(git.resolve(String.format("modules/lib/objects/%02x", i)));
            Files.writeString(fanOut.resolve("0123456789abcdef0123456789abcdef012345"), "blob");
        }
        // A submodule named x/objects/ab takes its config from here: a file in a folder named as loose objects are.
        Files.createDirectories(git.resolve("modules/x/objects/ab"));
        Files.writeString(git.resolve("modules/x/objects/ab/config"), "[core]\n\tfsmonitor = touch MARK\n");

        // modules, lib, lib/hooks, lib/objects, lib/objects/pack, lib/refs, lib/refs/heads, x, x/objects.
        assertEquals(
                new GitModules.Look(List.of(git.resolve("modules/x/objects/ab/config")), 9, Optional.empty()),
                modules.appeared(ProtectedPaths.defaults(), known, 20));
    }

    @Test
    void aFolderTheLookCannotListIsReportedAsUnchecked() throws Exception {
        Assumptions.assumeFalse(
                "root".equals(System.getProperty("user.name")), "root lists any folder, whatever its mode");
        // Git enters it by name all the same, and runs the hook.
        Path evil = Files.createDirectories(git.resolve("modules/evil/hooks"));
        Files.writeString(evil.resolve("post-checkout"), "#!/bin/sh\ntouch MARK\n");
        Files.setPosixFilePermissions(evil.getParent(), PosixFilePermissions.fromString("--x--x--x"));
        try {
            assertEquals(
                    Optional.of("evil in it could not be read"),
                    modules.appeared(ProtectedPaths.defaults(), known, 1_000).unchecked());
        } finally {
            Files.setPosixFilePermissions(evil.getParent(), PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void anOrdinaryRepositoryWithSubmodulesAndLooseObjectsStaysWellBelowTheLimit() throws Exception {
        Path root = temp.toRealPath().resolve("app");
        Files.createDirectories(root);
        git(root, "init", "-q");
        for (String name : List.of("alpha", "beta", "gamma")) {
            Path library = temp.toRealPath().resolve(name);
            Files.createDirectories(library);
            git(library, "init", "-q");
            for (int i = 0; i < 300; i++) {
                Files.writeString(library.resolve("f" + i + ".txt"), name + " " + i + "\n");
            }
            git(library, "add", ".");
            git(
                    library,
                    "-c",
                    "user.name=Dockhand Test",
                    "-c",
                    "user.email=test@dockhand.invalid",
                    "commit",
                    "-qm",
                    "1");
            git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", library.toString(), "libs/" + name);
        }
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        Path modulesFolder = root.resolve(".git/modules");
        long folders;
        long looseObjectFolders;
        try (Stream<Path> all = Files.walk(modulesFolder)) {
            List<Path> dirs = all.filter(Files::isDirectory).toList();
            folders = dirs.size();
            looseObjectFolders = dirs.stream()
                    .filter(dir -> dir.getFileName().toString().matches("[0-9a-f]{2}")
                            && dir.getParent().getFileName().toString().equals("objects"))
                    .count();
        }

        GitModules.Look look = new GitModules(root.resolve(".git"), ".git", Set.of())
                .appeared(ProtectedPaths.defaults(), layout.readOnly(), ProtectedLayout.MAX_FOLDERS);

        // Loose objects spread over most of the 256 folders of each submodule; none of those is counted.
        assertTrue(looseObjectFolders > 3 * 150, looseObjectFolders + " loose-object folders");
        assertEquals(new GitModules.Look(List.of(), (int) (folders - looseObjectFolders), Optional.empty()), look);
        assertTrue(look.folders() < 100, look.folders() + " folders counted");
        assertEquals(new ProtectedLayout.Absent(List.of(root.resolve(".git/commondir")), List.of()), layout.absent());
    }
}
