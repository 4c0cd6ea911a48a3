package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A settings file that may still mean the old {@code tools.allowed} (it used to narrow the tools) is named at start. */
class AllowedToolsMeaningTest extends CliTest {
    /** What every run of the harness (--sandbox none) says on stderr. */
    private static final String SANDBOX_NONE =
            "dockhand: --sandbox none: commands run directly on this machine, unconfined.";

    @BeforeEach
    void setUp() throws Exception {
        cli.model.enqueue(answer("Hello."));
    }

    private Path userSettings(String json) throws Exception {
        Path file = temp.resolve("home/settings.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
        return file;
    }

    @Test
    void aFileThatSetsToolsAllowedWithoutToolsCoreGetsOneLineAtStart() throws Exception {
        Path file = userSettings("{\"tools\": {\"allowed\": [\"grep\", \"glob\"]}}");

        assertEquals(ExitCodes.OK, cli.run("-p", "hello"));

        assertEquals(
                List.of(
                        "dockhand: " + file + ": tools.allowed (grep, glob) now lets these tools run without a"
                                + " question; it used to narrow the tools offered, which tools.core does now. Move the list"
                                + " there if that is what it meant, or set tools.core (even to []) to keep it and silence"
                                + " this.",
                        SANDBOX_NONE),
                cli.errLines());
    }

    @Test
    void settingToolsCoreSaysTheFileMeansTheNewMeaning() throws Exception {
        userSettings("{\"tools\": {\"allowed\": [\"grep\"], \"core\": []}}");

        assertEquals(ExitCodes.OK, cli.run("-p", "hello"));

        assertEquals(List.of(SANDBOX_NONE), cli.errLines());
    }
}
