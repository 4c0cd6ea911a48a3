package dev.dockhand.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved outputs are named by Dockhand, stay in its folder, and a save that fails is said, never silent. */
class OutputFilesTest {
    private static final OutputLimits SMALL = new OutputLimits(1000, 20);

    @TempDir
    Path temp;

    private static void overflow(TruncatedOutput output, int lines) {
        for (int i = 1; i <= lines; i++) {
            output.appendLine("line " + i);
        }
    }

    private List<Path> everyFile() throws IOException {
        try (Stream<Path> walk = Files.walk(temp)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void aFileIsNamedByDockhandWhateverTheCallIdHolds() throws Exception {
        Path folder = temp.resolve("home/tmp/session");
        OutputFiles files = new OutputFiles(folder);
        List<String> ids = List.of(
                "../../../ESCAPED",
                "/etc/passwd",
                "a/b/c",
                "nul\u0000byte",
                "x".repeat(10_000),
                "CON",
                "NUL",
                "COM1",
                "LPT1.txt",
                "aux",
                "..",
                "");
        List<Path> saved = new ArrayList<>();
        for (String id : ids) {
            try (TruncatedOutput output = files.newOutput(SMALL, id)) {
                overflow(output, 100);
                output.text();
                saved.add(output.fullOutput().orElseThrow());
            }
        }

        for (Path file : saved) {
            assertEquals(folder, file.getParent());
            assertTrue(file.getFileName().toString().matches("output-[0-9]+-[0-9a-f]{16}\\.txt"), file.toString());
        }
        assertEquals(saved.stream().sorted().toList(), everyFile());
    }

    @Test
    void aSavedOutputIsOwnerOnlyInOwnerOnlyFolders() throws Exception {
        Path folder = temp.resolve("home/tmp/session");
        Path saved;
        try (TruncatedOutput output = new OutputFiles(folder).newOutput(SMALL, "c1")) {
            overflow(output, 100);
            output.text();
            saved = output.fullOutput().orElseThrow();
        }

        assertEquals(
                List.of("rw-------", "rwx------", "rwx------"),
                List.of(permissions(saved), permissions(folder), permissions(folder.getParent())));
    }

    private static String permissions(Path path) throws IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void anEarlierFileUnderTheSameNameIsNeverOverwritten() throws Exception {
        Path folder = temp.resolve("out");
        Files.createDirectories(folder);
        // A resumed session counts from 1 again, in the same folder.
        Path earlier = folder.resolve(OutputFiles.name(1, "call_1"));
        Files.writeString(earlier, "earlier output\n");

        Path saved;
        try (TruncatedOutput output = new OutputFiles(folder).newOutput(SMALL, "call_1")) {
            overflow(output, 100);
            output.text();
            saved = output.fullOutput().orElseThrow();
        }

        assertEquals(folder.resolve(OutputFiles.name(2, "call_1")), saved);
        assertEquals("earlier output\n", Files.readString(earlier));
        assertEquals(100, Files.readAllLines(saved).size());
    }

    @Test
    void aLinkPlantedUnderTheNextNameIsNotWrittenThrough() throws Exception {
        Path folder = temp.resolve("out");
        Files.createDirectories(folder);
        Path target = temp.resolve("victim.txt");
        Files.writeString(target, "keep me\n");
        Files.createSymbolicLink(folder.resolve(OutputFiles.name(1, "c")), target);

        try (TruncatedOutput output = new OutputFiles(folder).newOutput(SMALL, "c")) {
            overflow(output, 100);
            output.text();
        }

        assertEquals("keep me\n", Files.readString(target));
    }

    @Test
    void whenTheFolderCannotBeMadeTheModelStillGetsHeadAndTailAndWhy() throws Exception {
        // A file where the folder should be: it fails for root too, unlike a folder without write permission.
        Files.writeString(temp.resolve("blocked"), "");
        List<String> told = new ArrayList<>();
        OutputFiles session = new OutputFiles(temp.resolve("blocked/out"), told::add);
        OutputFiles call = session.forCall();

        String text;
        try (TruncatedOutput output = call.newOutput(new OutputLimits(1000, 10), "c1")) {
            overflow(output, 50);
            text = output.text();
            assertEquals(Optional.empty(), output.fullOutput());
        }

        String reason = call.lost().orElseThrow();
        assertEquals(
                "line 1\nline 2\n\n[... 40 lines omitted. The rest of the output (50 lines in all) could not be kept: "
                        + reason + ". Only these first and last lines remain; run it again with less output (a"
                        + " filter, a narrower search) to see more ...]\n\n"
                        + "line 43\nline 44\nline 45\nline 46\nline 47\nline 48\nline 49\nline 50",
                text);
        assertEquals(List.of(reason), told);
        assertEquals(List.of(temp.resolve("blocked")), everyFile());
    }

    @Test
    void theSessionIsToldOnceHoweverManyOutputsAreLost() {
        Path folder = temp.resolve("n".repeat(300));
        List<String> told = new ArrayList<>();
        OutputFiles session = new OutputFiles(folder, told::add);

        for (int i = 0; i < 3; i++) {
            OutputFiles call = session.forCall();
            try (TruncatedOutput output = call.newOutput(SMALL, "c" + i)) {
                overflow(output, 100);
                output.text();
            }
            assertTrue(call.lost().isPresent());
        }

        assertEquals(1, told.size());
        assertTrue(told.get(0).startsWith("File name too long"), told.get(0));
    }

    @Test
    void aDiskThatFillsMidwayDeletesThePartialCopyAndSaysSo() throws Exception {
        Path file = temp.resolve("partial.txt");
        List<String> told = new ArrayList<>();
        Writer full = new Writer() {
            private int written;

            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                written += length;
                if (written > 300) {
                    throw new IOException("No space left on device");
                }
                Files.writeString(file, new String(buffer, offset, length), java.nio.file.StandardOpenOption.APPEND);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        String text;
        try (TruncatedOutput output = new TruncatedOutput(
                new OutputLimits(1000, 10),
                () -> {
                    Files.createFile(file);
                    return new TruncatedOutput.Spill(file, new BufferedWriter(full, 16));
                },
                told::add,
                TruncatedOutput.MAX_SAVED_BYTES)) {
            overflow(output, 200);
            text = output.text();
        }

        assertEquals(List.of("No space left on device"), told);
        assertEquals(List.of(), everyFile());
        assertTrue(
                text.contains("[... 190 lines omitted. The rest of the output (200 lines in all) could not be kept: No"
                        + " space left on device."),
                text);
    }
}
