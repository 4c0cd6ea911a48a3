package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code @path} attachments read through the workspace like the file tools, links out of it never followed. */
public class AttachmentsTest {
    @TempDir
    Path temp;

    private Path root;
    private Workspace workspace;

    @BeforeEach
    void tree() throws Exception {
        root = Files.createDirectories(temp.resolve("project")).toRealPath();
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "the secret\n");
        Files.createDirectories(root.resolve("real"));
        Files.writeString(root.resolve("real/notes.txt"), "remember the milk\n");
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        workspace = Workspace.of(root);
    }

    @Test
    void attachesAFileThroughAFolderLinkThatStaysInside() {
        assertEquals(
                new Attachments.Expanded(
                        "see @alias/notes.txt\n\n<file path=\"alias/notes.txt\">\nremember the milk\n</file>",
                        List.of("attached alias/notes.txt (1 line)")),
                Attachments.expand("see @alias/notes.txt", workspace));
    }

    @Test
    void doesNotAttachAFileBehindALinkOutside() {
        assertEquals(
                new Attachments.Expanded(
                        "see @out/secret.txt",
                        List.of("@out/secret.txt was not attached: 'out/secret.txt' goes through the symlink out to "
                                + temp.resolve("outside").toAbsolutePath() + ", which is outside the workspace " + root
                                + ".")),
                Attachments.expand("see @out/secret.txt", workspace));
    }

    @Test
    void listsAFolderWithoutFollowingItsLinks() {
        assertEquals(
                new Attachments.Expanded(
                        "look at @.\n\n<folder path=\".\">\nalias\nout\nreal/\n</folder>",
                        List.of("attached folder . (3 entries)")),
                Attachments.expand("look at @.", workspace));
    }
}
