package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmallFileTest {
    @TempDir
    Path temp;

    @Test
    void aSmallFileIsReadWhole() throws Exception {
        Path file = Files.writeString(temp.resolve("commondir"), "../..\n");

        assertEquals("../..\n", new String(SmallFile.read(file, 4096).orElseThrow()));
    }

    @Test
    void aHugeFileIsReadOnlyToOneByteOverTheLimit() throws Exception {
        Path file = temp.resolve("config");
        // Sparse: three gigabytes that take no disk, as a command swapping in a huge config would leave them.
        try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
            huge.setLength(3L << 30);
        }

        assertEquals(1025, SmallFile.read(file, 1024).orElseThrow().length);
    }

    @Test
    void aPipePutInAFilesPlaceAfterItsCheckIsGivenUpAndItsReaderReleased() throws Exception {
        Path pipe = temp.resolve("config");
        Process mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).start();
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is needed to make a named pipe");

        Optional<byte[]> read = assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> SmallFile.readChecked(pipe, 1024, LinkOption.NOFOLLOW_LINKS));

        assertEquals(Optional.empty(), read);
        assertEquals(Optional.empty(), SmallFile.read(pipe, 1024, LinkOption.NOFOLLOW_LINKS));
    }
}
