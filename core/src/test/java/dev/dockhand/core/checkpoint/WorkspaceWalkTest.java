package dev.dockhand.core.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shortcuts of a snapshot of an unchanged workspace, each against the change it must still see. */
class WorkspaceWalkTest {
    @TempDir
    Path temp;

    private Path workspace() throws Exception {
        return Files.createDirectories(temp.resolve("project"));
    }

    private ShadowRepository open(Path workspace) throws Exception {
        return ShadowRepository.open(temp.resolve("shadow"), workspace, 1024 * 1024, List.of());
    }

    private static List<String> paths(ShadowRepository shadow, ObjectId tree) throws Exception {
        return new ArrayList<>(shadow.files(tree).keySet());
    }

    private static String text(ShadowRepository shadow, ObjectId tree, String path) throws Exception {
        return new String(shadow.content(shadow.files(tree).get(path).blob()), StandardCharsets.UTF_8);
    }

    /** Makes every file and folder under {@code workspace} an hour old: long past any racily clean window. */
    private static void age(Path workspace) throws Exception {
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        try (Stream<Path> paths = Files.walk(workspace)) {
            for (Path path : paths.toList()) {
                Files.setLastModifiedTime(path, old);
            }
        }
    }

    /** Gives {@code file} the time {@code time} and returns it. */
    private static FileTime setTime(Path file, Instant time) throws Exception {
        FileTime fileTime = FileTime.from(time);
        Files.setLastModifiedTime(file, fileTime);
        return fileTime;
    }

    /** The index's bytes and time, and the object files: what a snapshot that writes nothing leaves as it was. */
    private static List<Object> written(Path shadow) throws Exception {
        Path index = shadow.resolve("index");
        List<Object> state = new ArrayList<>();
        state.add(Files.getLastModifiedTime(index));
        state.add(java.util.HexFormat.of().formatHex(Files.readAllBytes(index)));
        try (Stream<Path> objects = Files.walk(shadow.resolve("objects"))) {
            state.add(objects.filter(Files::isRegularFile)
                    .map(Path::toString)
                    .sorted()
                    .toList());
        }
        return state;
    }

    @Test
    void aGitignoreRuleAddedAfterASnapshotDropsThePathsItNowIgnoresFromTheNext() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        Files.writeString(workspace.resolve("debug.log"), "noise\n");
        Files.createDirectories(workspace.resolve("gen"));
        Files.writeString(workspace.resolve("gen/Made.java"), "class Made {}\n");
        Files.createDirectories(workspace.resolve("sub"));
        Files.writeString(workspace.resolve("sub/b.txt"), "b\n");
        Files.writeString(workspace.resolve("sub/scratch.tmp"), "scratch\n");
        age(workspace);
        try (ShadowRepository shadow = open(workspace)) {
            assertEquals(
                    List.of("a.txt", "debug.log", "gen/Made.java", "sub/b.txt", "sub/scratch.tmp"),
                    paths(shadow, shadow.snapshot()));
            assertEquals(
                    List.of("a.txt", "debug.log", "gen/Made.java", "sub/b.txt", "sub/scratch.tmp"),
                    paths(shadow, shadow.snapshot()));

            Files.writeString(workspace.resolve(".gitignore"), "*.log\ngen/\n");
            Files.writeString(workspace.resolve("sub/.gitignore"), "*.tmp\n");

            assertEquals(
                    List.of(".gitignore", "a.txt", "sub/.gitignore", "sub/b.txt"), paths(shadow, shadow.snapshot()));
        }
    }

    @Test
    void aGitignoreRewrittenToTheSameSizeAndTimeStillChangesWhatIsIgnored() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        Files.writeString(workspace.resolve("b.log"), "b\n");
        Files.writeString(workspace.resolve(".gitignore"), "*.zip\n");
        Instant written = Instant.now().minus(Duration.ofHours(1));
        FileTime recorded = setTime(workspace.resolve(".gitignore"), written);
        try (ShadowRepository shadow = open(workspace)) {
            // Read a second after it was written: it may still change within the same timestamp tick, unseen.
            assertEquals(
                    List.of(".gitignore", "a.txt", "b.log"), paths(shadow, shadow.snapshot(written.plusSeconds(1))));

            // Changed again in that tick: size and time say nothing changed, and a later snapshot must still see it.
            Files.writeString(workspace.resolve(".gitignore"), "*.log\n");
            Files.setLastModifiedTime(workspace.resolve(".gitignore"), recorded);

            assertEquals(List.of(".gitignore", "a.txt"), paths(shadow, shadow.snapshot(written.plusSeconds(60))));
        }
    }

    @Test
    void aGitignoreRemovedBringsBackWhatItIgnored() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        Files.writeString(workspace.resolve("b.log"), "b\n");
        Files.writeString(workspace.resolve(".gitignore"), "*.log\n");
        age(workspace);
        try (ShadowRepository shadow = open(workspace)) {
            assertEquals(List.of(".gitignore", "a.txt"), paths(shadow, shadow.snapshot()));

            Files.delete(workspace.resolve(".gitignore"));

            assertEquals(List.of("a.txt", "b.log"), paths(shadow, shadow.snapshot()));
        }
    }

    @Test
    void aFileRewrittenWithinTheSameTickAsTheSnapshotThatReadItIsReadAgain() throws Exception {
        Path workspace = workspace();
        Path file = workspace.resolve("a.txt");
        Files.writeString(file, "one\n");
        Instant written = Instant.now().minus(Duration.ofHours(1));
        FileTime recorded = setTime(file, written);
        try (ShadowRepository shadow = open(workspace)) {
            assertEquals("one\n", text(shadow, shadow.snapshot(written.plusSeconds(1)), "a.txt"));

            // Same size, same time: only its having been too recent to trust when recorded tells the change apart.
            Files.writeString(file, "two\n");
            Files.setLastModifiedTime(file, recorded);

            assertEquals("two\n", text(shadow, shadow.snapshot(written.plusSeconds(60)), "a.txt"));
        }
    }

    @Test
    void anUnchangedWorkspaceWritesNothingAndATouchedFileIsRecordedOnceNotReadAtEverySnapshot() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        Files.createDirectories(workspace.resolve("src"));
        Files.writeString(workspace.resolve("src/Main.java"), "class Main {}\n");
        age(workspace);
        Path store = temp.resolve("shadow");
        try (ShadowRepository shadow = open(workspace)) {
            ObjectId tree = shadow.snapshot();
            List<Object> first = written(store);

            assertEquals(tree, shadow.snapshot());
            assertEquals(first, written(store));

            // Same bytes, a new time (a build that rewrote it, a checkout): recorded with the new time once...
            Files.setLastModifiedTime(
                    workspace.resolve("a.txt"), FileTime.from(Instant.now().minus(Duration.ofMinutes(5))));
            assertEquals(tree, shadow.snapshot());
            List<Object> touched = written(store);
            assertEquals(first.get(2), touched.get(2));
            assertNotEquals(first.get(1), touched.get(1));

            // ...and trusted from then on: the next snapshot writes nothing again.
            assertEquals(tree, shadow.snapshot());
            assertEquals(touched, written(store));
        }
    }

    @Test
    void aSecondStoreOnTheSameFolderSeesWhatTheFirstRecordedAndWhatChangedSince() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        age(workspace);
        try (ShadowRepository first = open(workspace);
                ShadowRepository second = open(workspace)) {
            first.snapshot();
            second.snapshot();
            Files.writeString(workspace.resolve("a.txt"), "changed\n");
            Files.writeString(workspace.resolve("b.txt"), "new\n");
            ObjectId seen = second.snapshot();
            Files.delete(workspace.resolve("b.txt"));

            ObjectId tree = first.snapshot();

            assertEquals("changed\n", text(first, tree, "a.txt"));
            assertEquals(List.of("a.txt"), paths(first, tree));
            assertEquals(List.of("a.txt", "b.txt"), paths(second, seen));
        }
    }

    @Test
    void aFileRewrittenToTheSameSizeWithItsTimePutBackIsReadAgain() throws Exception {
        Path workspace = workspace();
        Path file = workspace.resolve("a.txt");
        Files.writeString(file, "one\n");
        FileTime old = setTime(file, Instant.now().minus(Duration.ofHours(1)));
        FileTime recordedChange = (FileTime) Files.getAttribute(file, "unix:ctime");
        try (ShadowRepository shadow = open(workspace)) {
            // Taken as if long after the file's last change: its entry is trusted from the next snapshot on.
            Instant later = Instant.now().plus(Duration.ofMinutes(1));
            assertEquals("one\n", text(shadow, shadow.snapshot(later), "a.txt"));

            // Same size, modification time put back (touch -r, cp -p): only the change time moved. The kernel stamps
            // it from a clock that ticks coarsely, so the edit is repeated until it lands in a later tick, as any
            // edit made after a snapshot does.
            do {
                Files.writeString(file, "two\n");
                Files.setLastModifiedTime(file, old);
            } while (Files.getAttribute(file, "unix:ctime").equals(recordedChange));

            assertEquals("two\n", text(shadow, shadow.snapshot(later.plus(Duration.ofMinutes(1))), "a.txt"));
        }
    }
}
