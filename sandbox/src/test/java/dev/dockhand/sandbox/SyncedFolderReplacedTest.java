package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that puts a file where the host has a folder ({@code rm -rf gen && echo x > gen}): the copy back removes
 * from the host's folder what the sync copied in, and replaces the folder by the file only when nothing else is left
 * in it. A file the container never had (ignored, or over the size limit) keeps its folder standing, and the notice
 * names it. Every other removal waits until the files are written, so a rename whose copy back fails leaves the file
 * under its old name. The container is a folder here ({@link FolderContainerFiles}); the host's files are real.
 */
class SyncedFolderReplacedTest {
    @TempDir
    Path workspace;

    @TempDir
    Path box;

    private SyncedWorkspace synced;
    private FolderContainerFiles container;

    @BeforeEach
    void realPaths() throws IOException {
        workspace = workspace.toRealPath();
    }

    private void start(SyncLimits limits) throws IOException {
        synced = new SyncedWorkspace(
                ContainerSpec.of(DockerSettings.DEFAULT, workspace, List.of(), Map.of(), HostIdentity.current()),
                limits,
                List::of);
        container = new FolderContainerFiles(box);
        synced.started(container);
    }

    private void write(Path root, String path, String content) throws IOException {
        Files.createDirectories(root.resolve(path).getParent());
        Files.writeString(root.resolve(path), content);
    }

    /** What the command does in the container: the folder goes, a file takes its name. */
    private void replaceByFile(String folder, String content) throws IOException {
        FileTrees.deleteTree(box.resolve(folder));
        Files.writeString(box.resolve(folder), content);
    }

    private List<String> tree() throws IOException {
        try (var walk = Files.walk(workspace)) {
            return walk.filter(path -> !path.equals(workspace))
                    .map(path -> HostFiles.relative(workspace, path))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void aFolderHoldingFilesNeverCopiedInStaysAndTheNoticeNamesIt() throws IOException {
        write(workspace, ".gitignore", "*.log\n");
        write(workspace, "gen/a.txt", "synced\n");
        write(workspace, "gen/run.log", "ignored\n");
        write(workspace, "big/small.txt", "synced\n");
        write(workspace, "big/data.bin", "over the size limit\n");
        start(new SyncLimits(10, 1 << 20));
        replaceByFile("gen", "x\n");
        replaceByFile("big", "y\n");
        write(box, "fine.txt", "ok\n");

        List<String> notices = synced.afterCommand(container);

        assertEquals(
                List.of("Left as it is on the user's machine, since it changed there too or was never synced, so the"
                        + " command's version stays only in the sandbox: big (the folder holds big/data.bin, which was"
                        + " not synced), gen (the folder holds gen/run.log, which was not synced)."),
                notices);
        // The files the sync had copied in are gone, as in the container; the rest of each folder stays.
        assertEquals(List.of(".gitignore", "big", "big/data.bin", "fine.txt", "gen", "gen/run.log"), tree());
        assertEquals(
                List.of("ignored\n", "over the size limit\n", "ok\n"),
                List.of(
                        Files.readString(workspace.resolve("gen/run.log")),
                        Files.readString(workspace.resolve("big/data.bin")),
                        Files.readString(workspace.resolve("fine.txt"))));

        // The next command finds the two sides as this copy back left them: no second notice, nothing copied in over
        // the container's file.
        synced.beforeCommand(container);
        assertEquals(List.of(), synced.afterCommand(container));
        assertEquals("x\n", Files.readString(box.resolve("gen")));
    }

    @Test
    void aFolderHoldingOnlyWhatWasCopiedInIsReplacedByTheFile() throws IOException {
        write(workspace, "gen/a.txt", "synced\n");
        write(workspace, "gen/sub/b.txt", "synced\n");
        Files.createDirectories(workspace.resolve("gen/empty"));
        start(SyncLimits.DEFAULT);
        replaceByFile("gen", "x\n");

        List<String> notices = synced.afterCommand(container);

        assertEquals(List.of(), notices);
        assertEquals(List.of("gen"), tree());
        assertEquals("x\n", Files.readString(workspace.resolve("gen")));
    }

    @Test
    void aRenameWhoseCopyBackFailsLeavesTheFileOnTheHostUnderItsOldName() throws IOException {
        write(workspace, "a.txt", "precious\n");
        start(SyncLimits.DEFAULT);
        Files.move(box.resolve("a.txt"), box.resolve("b.txt"));
        container.content(in -> new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        });

        List<String> notices = synced.afterCommand(container);

        assertEquals(
                List.of("The files the command changed in " + workspace + " could not all be copied to the user's"
                        + " machine (connection reset); the sandbox has them."),
                notices);
        assertEquals(List.of("a.txt"), tree());
        assertEquals("precious\n", Files.readString(workspace.resolve("a.txt")));
    }

    @Test
    void aNameWhoseCaseAloneChangedComesBackUnderItsNewName() throws IOException {
        write(workspace, "Notes.txt", "kept\n");
        start(SyncLimits.DEFAULT);
        Files.move(box.resolve("Notes.txt"), box.resolve("notes.txt"));

        List<String> notices = synced.afterCommand(container);

        assertEquals(List.of(), notices);
        assertEquals(List.of("notes.txt"), tree());
        assertEquals("kept\n", Files.readString(workspace.resolve("notes.txt")));
    }
}
