package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackgroundOutputFileTest {
    private static final Clock NOON = Clock.fixed(Instant.parse("2026-12-07T12:00:05Z"), ZoneOffset.UTC);
    private static final String EMPTIED =
            "[Dockhand emptied this file at 12:00:05: the command's output passed 0 MB. What follows is newer.]\n";

    @TempDir
    Path temp;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void outputWithinTheLimitIsAppendedAsItComes() throws Exception {
        Path file = Files.writeString(temp.resolve("bg-1.txt"), "");
        try (BackgroundOutputFile output = BackgroundOutputFile.open(file, 1000, NOON)) {
            output.write(bytes("one\n"));
            output.write(bytes("two\n"));
        }
        assertEquals("one\ntwo\n", Files.readString(file));
    }

    @Test
    void outputPastTheLimitEmptiesTheFileWhichSaysSoAndGoesOnWithTheNewest() throws Exception {
        Path file = Files.writeString(temp.resolve("bg-1.txt"), "");
        String line = "x".repeat(99) + "\n";
        try (BackgroundOutputFile output = BackgroundOutputFile.open(file, 1000, NOON)) {
            for (int i = 0; i < 10; i++) {
                output.write(bytes(line));
            }
            output.write(bytes("newest\n"));
        }
        assertEquals(EMPTIED + "newest\n", Files.readString(file));
    }

    @Test
    void oneWriteLargerThanTheLimitKeepsItsEnd() throws Exception {
        Path file = Files.writeString(temp.resolve("bg-1.txt"), "");
        String huge = "a".repeat(5000) + "the end\n";
        try (BackgroundOutputFile output = BackgroundOutputFile.open(file, 1000, NOON)) {
            output.write(bytes(huge));
        }
        String kept = Files.readString(file);
        assertEquals(1000, kept.length());
        assertEquals(EMPTIED + "a".repeat(1000 - EMPTIED.length() - 8) + "the end\n", kept);
    }
}
