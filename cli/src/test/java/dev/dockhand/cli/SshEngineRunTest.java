package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Whole runs against an engine at {@code DOCKER_HOST=ssh://…}: the private sshd of scripts/ssh-remote-setup.sh in
 * front of the second engine, reached with the set-up's own ssh config (DOCKHAND_REMOTE_SSH_HOST and
 * DOCKHAND_REMOTE_SSH_DIR, which .ci/run sets; without them skipped, or failed when DOCKHAND_REQUIRE_DOCKER=1).
 */
@Tag("docker")
class SshEngineRunTest extends CliTest {
    private String host;
    private Path tmp;
    private Set<Path> bridgesBefore;

    @BeforeEach
    void setUp() throws Exception {
        host = System.getenv("DOCKHAND_REMOTE_SSH_HOST");
        String dir = System.getenv("DOCKHAND_REMOTE_SSH_DIR");
        if (host == null || host.isBlank() || dir == null || dir.isBlank()) {
            String reason = "DOCKHAND_REMOTE_SSH_HOST and DOCKHAND_REMOTE_SSH_DIR are not set"
                    + " (scripts/ssh-remote-setup.sh starts the sshd and writes them)";
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + reason);
            }
            assumeTrue(false, "ssh:// engine runs skipped: " + reason);
        }
        cli.variables.put("PATH", Path.of(dir, "bin") + ":" + System.getenv("PATH"));
        cli.variables.put("HOME", System.getProperty("user.home"));
        tmp = Path.of(System.getProperty("java.io.tmpdir"));
        bridgesBefore = bridges();
    }

    @Test
    void aRunOverSshEditsRunsAndReadsFilesAndLeavesNothingBehind() throws Exception {
        cli.variables.put("DOCKER_HOST", host);
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"notes.txt\",\"content\":\"one\\n\"}")),
                calls(toolCall(
                        "r1",
                        "run_shell_command",
                        "{\"command\":\"sed -i s/one/two/ notes.txt && cat notes.txt && echo made > made.txt\"}")),
                calls(toolCall("f1", "read_file", "{\"path\":\"made.txt\"}")),
                answer("Done."));

        assertEquals(
                ExitCodes.OK, cli.run("--sandbox", "docker", "--yolo", "-p", "edit, run and read"), cli.err.toString());

        cli.model.takeRequest();
        cli.model.takeRequest();
        assertEquals("Exit code: 0\nOutput:\ntwo", toolResult(cli.model.takeRequest(), 5));
        assertEquals("     1\tmade\n", toolResult(cli.model.takeRequest(), 7));
        assertEquals("two\n", Files.readString(cli.workspace.resolve("notes.txt")));
        assertEquals("made\n", Files.readString(cli.workspace.resolve("made.txt")));
        assertEquals(List.of(), dialStdioProcesses());
        assertEquals(Set.of(), newBridges());
    }

    @Test
    void anSshThatCannotLogInStopsTheRunBeforeTheModelIsCalled() throws Exception {
        String nobody = host.replaceFirst("ssh://[^@]*@", "ssh://nobody@");
        String port = host.substring(host.lastIndexOf(':') + 1);
        cli.variables.put("DOCKER_HOST", nobody);

        assertEquals(ExitCodes.SANDBOX_UNAVAILABLE, cli.run("--sandbox", "docker", "-p", "x"));

        assertEquals(
                "dockhand: Docker does not answer at " + nobody + ": ssh exited with status 255 saying"
                        + " \"nobody@127.0.0.1: Permission denied (publickey).\"; check that \"ssh -p " + port
                        + " -l nobody 127.0.0.1 docker version\" works without a prompt (the docker CLI must be"
                        + " installed there), or run with --sandbox none to run commands unconfined.\n",
                cli.err.toString());
        assertEquals(0, cli.model.requestCount());
        assertEquals(List.of(), dialStdioProcesses());
        assertEquals(Set.of(), newBridges());
    }

    private static String toolResult(JsonNode request, int index) {
        return request.get("messages").get(index).get("content").asText();
    }

    private static List<Long> dialStdioProcesses() {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("docker system dial-stdio"))
                .map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }

    /** The bridges' private folders in the temporary folder. */
    private Set<Path> bridges() throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("dockhand-ssh-"))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    private Set<Path> newBridges() throws IOException {
        Set<Path> now = bridges();
        now.removeAll(bridgesBefore);
        return now;
    }
}
