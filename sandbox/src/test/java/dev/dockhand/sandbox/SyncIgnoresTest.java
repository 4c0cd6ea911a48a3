package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncIgnoresTest {
    @TempDir
    Path root;

    private void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void theNearestGitignoreDecidesThenTheOnesAboveThenTheRepositorysExclude() throws IOException {
        write(".gitignore", "*.log\nbuild/\n");
        write("app/.gitignore", "!keep.log\nlocal.txt\n");
        write(".git/info/exclude", "secret.env\n");
        SyncIgnores ignores = new SyncIgnores(root);

        Map<String, Boolean> asked = new TreeMap<>();
        for (String path : List.of(
                "a.log",
                "app/keep.log",
                "app/other.log",
                "app/local.txt",
                "local.txt",
                "secret.env",
                "app/secret.env",
                "src/Main.java")) {
            asked.put(path, ignores.ignored(path, false));
        }
        asked.put("build", ignores.ignored("build", true));
        asked.put("app/build", ignores.ignored("app/build", true));

        assertEquals(
                Map.of(
                        "a.log",
                        true,
                        "app/keep.log",
                        false,
                        "app/other.log",
                        true,
                        "app/local.txt",
                        true,
                        "local.txt",
                        false,
                        "secret.env",
                        true,
                        "app/secret.env",
                        true,
                        "src/Main.java",
                        false,
                        "build",
                        true,
                        "app/build",
                        true),
                asked);
    }

    @Test
    void nothingInsideAGitFolderIsIgnoredWhateverTheRulesSay() throws IOException {
        write(".gitignore", "*.pack\nobjects/\n");
        SyncIgnores ignores = new SyncIgnores(root);

        assertEquals(
                List.of(false, false, false, true),
                List.of(
                        ignores.ignored(".git/objects/pack/pack-1.pack", false),
                        ignores.ignored(".git/objects", true),
                        ignores.ignored("sub/.git/objects/pack/pack-2.pack", false),
                        ignores.ignored("sub/objects", true)));
    }

    /** JGit's matcher took 21 s on a 28-character name here, doubling with each character more. */
    @Test
    void aRuleOfManyStarsIsDecidedQuicklyAgainstALongName() throws IOException {
        write(".gitignore", "*a*a*a*a*a*a*a*a*a*a*a*a*b\n");
        write("sub/.gitignore", "/*a*a*a*a*a*a*a*a*a*a*a*a*c/\n");
        SyncIgnores ignores = new SyncIgnores(root);
        String name = "a".repeat(255);

        assertEquals(
                List.of(false, true, false, true),
                assertTimeoutPreemptively(
                        Duration.ofSeconds(10),
                        () -> List.of(
                                ignores.ignored(name, false),
                                ignores.ignored(name.substring(1) + "b", false),
                                ignores.ignored("sub/" + name, true),
                                ignores.ignored("sub/" + name.substring(1) + "c", true))));
    }
}
