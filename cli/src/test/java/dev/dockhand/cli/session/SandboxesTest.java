package dev.dockhand.cli.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxesTest {
    @TempDir
    Path temp;

    @Test
    void theFileSystemsRootIsNeverMountedWhateverTheHome() {
        CliEnvironment environment = new CliEnvironment(
                Map.of("HOME", temp.toString()),
                Path.of("/"),
                temp.resolve("dockhand"),
                InputStream.nullInputStream(),
                false);

        DockhandException refused = assertThrows(
                DockhandException.class, () -> Sandboxes.refuseHomeMounts(List.of(Path.of("/")), environment));

        assertEquals(
                List.of(
                        ExitCodes.CONFIGURATION,
                        "the Docker sandbox would mount /, the whole file system, read-write, where a command could"
                                + " change your shell's start-up files, Git settings and SSH keys; start Dockhand in"
                                + " a project folder."),
                List.of(refused.exitCode(), refused.getMessage()));
    }
}
