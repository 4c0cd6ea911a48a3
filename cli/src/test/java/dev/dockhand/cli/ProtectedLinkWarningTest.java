package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A protected link that leads to a folder holding it ({@code .vscode -> .}) protects the link alone, not the whole
 * workspace; the user is told so in one line on stderr, once the scan that found it is done (before the first command
 * runs), and the session's files stay writable without the protected-path question.
 */
class ProtectedLinkWarningTest extends CliTest {
    @Test
    void aProtectedLinkToTheWorkspaceIsOneLineOnStderrAndLeavesTheFilesWritable() throws Exception {
        Files.createSymbolicLink(cli.workspace.resolve(".vscode"), Path.of("."));
        cli.model.enqueue(calls(toolCall("x1", "run_shell_command", "{\"command\":\"true\"}")));
        cli.model.enqueue(calls(toolCall("w1", "write_file", "{\"path\":\"notes.txt\",\"content\":\"ok\\n\"}")));
        cli.model.enqueue(answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "work"));

        assertEquals(
                List.of(
                        "dockhand: --sandbox none: commands run directly on this machine, unconfined.",
                        "dockhand: .vscode is a link to the top of the workspace, a folder that holds it: only the"
                                + " link is protected, not the files in that folder."),
                // The scan's line comes when the scan is done, which may be before the sandbox's: in order of text.
                cli.err
                        .toString()
                        .lines()
                        .filter(line -> line.startsWith("dockhand: "))
                        .sorted()
                        .toList());
        assertEquals("ok\n", Files.readString(cli.workspace.resolve("notes.txt")));
    }
}
