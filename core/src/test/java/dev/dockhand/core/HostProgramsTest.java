package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostProgramsTest {
    @TempDir
    Path temp;

    private Path program(Path folder, String name) throws Exception {
        Files.createDirectories(folder);
        Path file = folder.resolve(name);
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Test
    void aProgramIsFoundInTheFirstAbsoluteFolderThatHoldsIt() throws Exception {
        program(temp.resolve("b"), "rg");
        Path first = program(temp.resolve("a"), "rg");
        String path = temp.resolve("a") + File.pathSeparator + temp.resolve("b");

        assertEquals(Optional.of(first), HostPrograms.find("rg", path));
    }

    @Test
    void emptyAndRelativeEntriesAreNeverSearchedSoTheWorkspaceCannotShipAProgram() throws Exception {
        // The JVM's working directory stands for the workspace: a relative entry would name a folder in it.
        Path cwd = Path.of("").toAbsolutePath();
        String name = "dockhand-planted-" + ProcessHandle.current().pid();
        Path planted = program(cwd.resolve("target/planted-bin"), name);
        try {
            String path = "" + File.pathSeparator + "." + File.pathSeparator + "target/planted-bin" + File.pathSeparator
                    + "/nonexistent";

            assertEquals(Optional.empty(), HostPrograms.find(name, path));
            assertEquals(
                    Optional.of(planted),
                    HostPrograms.find(name, cwd.resolve("target/planted-bin").toString()));
        } finally {
            Files.deleteIfExists(planted);
        }
    }

    @Test
    void aNameWithASlashOrAFolderOrAMissingPathFindsNothing() throws Exception {
        Files.createDirectories(temp.resolve("a/rg"));
        String path = temp.resolve("a").toString();

        assertEquals(Optional.empty(), HostPrograms.find("rg", path));
        assertEquals(Optional.empty(), HostPrograms.find("a/rg", temp.toString()));
        assertEquals(Optional.empty(), HostPrograms.find("rg", null));
    }
}
