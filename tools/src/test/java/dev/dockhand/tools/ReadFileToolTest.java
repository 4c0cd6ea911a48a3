package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CompletedCall;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadFileToolTest {
    @TempDir
    Path workspace;

    @TempDir
    Path outside;

    private final ReadFileTool tool = new ReadFileTool();

    private ToolResult read(String path, Integer offset, Integer limit) {
        return tool.execute(
                new ReadFileTool.Params(path, offset, limit),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    @Test
    void returnsNumberedLines() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "alpha\nbeta\n");

        assertEquals(ToolResult.success("     1\talpha\n     2\tbeta\n", "read 2 lines"), read("a.txt", null, null));
    }

    @Test
    void readsAWindowAndSaysWhereToContinue() throws Exception {
        String text = IntStream.rangeClosed(1, 10).mapToObj(i -> "l" + i).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("b.txt"), text);

        assertEquals(
                ToolResult.success(
                        "     4\tl4\n     5\tl5\n\n[Showing lines 4-5 of 10. The file continues:"
                                + " call read_file with offset=6 to read more.]\n",
                        "read 2 lines"),
                read("b.txt", 4, 2));
    }

    @Test
    void cutsVeryLongLines() throws Exception {
        Files.writeString(workspace.resolve("long.txt"), "x".repeat(2500));

        assertEquals(
                ToolResult.success(
                        "     1\t" + "x".repeat(2000) + " [… line cut: 2500 characters in all]\n", "read 1 line"),
                read("long.txt", null, null));
    }

    @Test
    void aLongLineCutInsideAnEmojiKeepsWholeCharacters() throws Exception {
        // U+1F600 is two chars; the 2,000-char cut falls between them.
        Files.writeString(workspace.resolve("emoji.txt"), "x".repeat(1999) + "\uD83D\uDE00" + "y".repeat(499));

        assertEquals(
                ToolResult.success(
                        "     1\t" + "x".repeat(1999) + " [… line cut: 2500 characters in all]\n", "read 1 line"),
                read("emoji.txt", null, null));
    }

    /** Lines {@code from}..{@code to} of a file whose line i is i, numbered as read_file numbers them. */
    private static String numbered(int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i <= to; i++) {
            text.append(String.format("%6d\t%d%n", i, i));
        }
        return text.toString();
    }

    private ToolResult read(String path, Integer offset, Integer limit, OutputLimits limits) {
        return tool.execute(
                new ReadFileTool.Params(path, offset, limit),
                new ToolContext(
                        Workspace.of(workspace),
                        TestEnvironments.NO_COMMANDS,
                        new Cancellation(),
                        OutputSink.NONE,
                        "c1",
                        limits,
                        outside));
    }

    @Test
    void aPageEndsWhereTheLineBudgetEndsAndSaysWhereTheNextStarts() throws Exception {
        String text = IntStream.rangeClosed(1, 1500).mapToObj(Integer::toString).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("big.txt"), text);

        assertEquals(
                ToolResult.success(
                        numbered(1, 1000)
                                + "\n[Showing lines 1-1000 of 1500. The file continues: call read_file with"
                                + " offset=1001 to read more.]\n",
                        "read 1000 lines"),
                read("big.txt", null, null));
        assertEquals(ToolResult.success(numbered(1001, 1500), "read 500 lines"), read("big.txt", 1001, 5000));
    }

    @Test
    void aPageEndsOnAWholeLineWhereTheCharacterBudgetEnds() throws Exception {
        String text = IntStream.rangeClosed(1, 100).mapToObj(Integer::toString).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("wide.txt"), text);

        // 600 characters less the note's 160: 440 characters of 9- and 10-character lines.
        assertEquals(
                ToolResult.success(
                        numbered(1, 44)
                                + "\n[Showing lines 1-44 of 100. The file continues: call read_file with offset=45"
                                + " to read more.]\n",
                        "read 44 lines"),
                read("wide.txt", null, null, new OutputLimits(600, 1000)));
    }

    // The done-when of issue 34: the scheduler's generic cut (1,000 lines by default) never drops the middle of a
    // read_file page.
    @Test
    void aFifteenHundredLineFileReachesTheModelWithNoOmissionInsideAPage() throws Exception {
        String text = IntStream.rangeClosed(1, 1500).mapToObj(Integer::toString).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("big.txt"), text);
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(tool)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                event -> {});

        List<CompletedCall> pages = scheduler.runRound(
                List.of(
                        new ToolCall("p1", "read_file", "{\"path\":\"big.txt\"}"),
                        new ToolCall("p2", "read_file", "{\"path\":\"big.txt\",\"offset\":1001}")),
                new Cancellation());

        assertEquals(
                List.of(
                        numbered(1, 1000)
                                + "\n[Showing lines 1-1000 of 1500. The file continues: call read_file with"
                                + " offset=1001 to read more.]\n",
                        numbered(1001, 1500)),
                pages.stream().map(page -> page.result().llmContent()).toList());
    }

    @Test
    void refusesBinaryFilesWithTheirSize() throws Exception {
        Files.write(workspace.resolve("blob.bin"), new byte[] {1, 0, 2, 3});

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS, "blob.bin is a binary file (4 B); read_file only reads text."),
                read("blob.bin", null, null));
    }

    @Test
    void namesTheKindOfKnownBinaryFiles() throws Exception {
        Files.write(workspace.resolve("doc.dat"), new byte[] {'%', 'P', 'D', 'F', '-', '1', '.', '7', 0});

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "doc.dat is a binary file (9 B, PDF document); read_file only reads text."),
                read("doc.dat", null, null));
    }

    @Test
    void anImageFileComesBackAsTheImageUpToTheSizeAnImageMayBe() throws Exception {
        byte[] png = java.util.Base64.getDecoder().decode(ToolImages.PNG_BASE64);
        Files.write(workspace.resolve("logo.dat"), png);
        byte[] huge = new byte[Math.toIntExact(Image.MAX_BYTES) + 1];
        System.arraycopy(png, 0, huge, 0, png.length);
        Files.write(workspace.resolve("huge.png"), huge);

        assertEquals(
                ToolResult.success("logo.dat is an image (image/png, 69 bytes).", "read image, 69 bytes")
                        .withImages(List.of(Image.of("image/png", png))),
                read("logo.dat", null, null));
        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "huge.png is a binary file (3.8 MB, PNG image); read_file only reads text."),
                read("huge.png", null, null));
    }

    @Test
    void anImageWiderThanAnApiTakesIsDescribedNotReturned() throws Exception {
        byte[] png = java.util.Base64.getDecoder().decode(ToolImages.PNG_BASE64);
        png[18] = 0x23;
        png[19] = 0x28; // 9000 px wide
        Files.write(workspace.resolve("wide.png"), png);

        assertEquals(
                ToolResult.success(
                        "wide.png is an image (image/png, 69 bytes).\n[image: image/png, 69 bytes, not shown: 9000x1"
                                + " px, more than the 8000 px a side an image may be]",
                        "read image, 69 bytes"),
                read("wide.png", null, null));
    }

    @Test
    void anImageThatGrewPastTheLimitSinceItsSizeWasReadIsTooLarge() throws Exception {
        byte[] grown = new byte[Math.toIntExact(Image.MAX_BYTES) + 100];
        byte[] png = java.util.Base64.getDecoder().decode(ToolImages.PNG_BASE64);
        System.arraycopy(png, 0, grown, 0, png.length);
        // A channel whose size is the file's before it grew: the read must stop at the limit, not at the end.
        SeekableByteChannel channel = new StaleSize(grown, png.length);

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "grown.png is a binary file (3.8 MB, PNG image); read_file only reads text."),
                ReadFileTool.binary(channel, "PNG image", "grown.png"));
        assertEquals(Image.MAX_BYTES + 1, channel.position());
    }

    @Test
    void reportsMissingFiles() {
        assertEquals(
                ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "File not found: nope.txt."),
                read("nope.txt", null, null));
    }

    @Test
    void reportsAnOffsetPastTheEnd() throws Exception {
        Files.writeString(workspace.resolve("c.txt"), "one\n");

        assertEquals(
                ToolResult.error(ToolErrorType.INVALID_PARAMS, "offset 5 is past the end of c.txt, which has 1 lines."),
                read("c.txt", 5, null));
    }

    @Test
    void refusesPathsOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                read("../etc/passwd", null, null).error().get());
    }

    @Test
    void saysWhenAFileIsEmpty() throws Exception {
        Files.writeString(workspace.resolve("empty.txt"), "");

        assertEquals(ToolResult.success("(empty.txt is empty)", "empty file"), read("empty.txt", null, null));
    }

    @Test
    void readsThroughASymlinkedFolderThatStaysInside() throws Exception {
        Files.createDirectories(workspace.resolve("real"));
        Files.writeString(workspace.resolve("real/a.txt"), "alpha\n");
        Files.createSymbolicLink(workspace.resolve("alias"), workspace.resolve("real"));

        assertEquals(ToolResult.success("     1\talpha\n", "read 1 line"), read("alias/a.txt", null, null));
    }

    @Test
    void refusesAFileBehindASymlinkOutside() throws Exception {
        Files.writeString(outside.resolve("secret.txt"), "the secret\n");
        Files.createSymbolicLink(workspace.resolve("link"), outside);

        ToolResult result = read("link/secret.txt", null, null);

        assertEquals(ToolErrorType.PATH_OUTSIDE_WORKSPACE, result.error().get());
        assertFalse(result.llmContent().contains("the secret"), result.llmContent());
    }

    /** A file's bytes behind a channel that reports the size it had before it grew. */
    private static final class StaleSize implements SeekableByteChannel {
        private final byte[] bytes;
        private final long staleSize;
        private int position;

        StaleSize(byte[] bytes, long staleSize) {
            this.bytes = bytes;
            this.staleSize = staleSize;
        }

        @Override
        public int read(java.nio.ByteBuffer target) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(target.remaining(), bytes.length - position);
            target.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(java.nio.ByteBuffer source) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            position = Math.toIntExact(newPosition);
            return this;
        }

        @Override
        public long size() {
            return staleSize;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
