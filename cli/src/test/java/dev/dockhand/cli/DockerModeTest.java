package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Whole single-shot runs in the default Docker sandbox. */
public class DockerModeTest extends CliTest {
    private ScriptedModel model;
    private StringWriter err;
    private Map<String, String> variables;
    private Path workspace;

    @BeforeEach
    void setUp() throws Exception {
        model = cli.model;
        err = cli.err;
        variables = cli.variables;
        workspace = cli.workspace;
        if (System.getenv("DOCKER_HOST") != null) {
            variables.put("DOCKER_HOST", System.getenv("DOCKER_HOST"));
        }
    }

    /** Runs in the default sandbox, Docker, as a user would. */
    private int run(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--sandbox", "docker"));
        all.addAll(List.of(args));
        return cli.run(all.toArray(String[]::new));
    }

    private static String toolResult(JsonNode request, int index) {
        return request.get("messages").get(index).get("content").asText();
    }

    @Test
    void anUnreachableDockerStopsTheRunBeforeTheModelIsCalled() {
        variables.put("DOCKER_HOST", "unix://" + temp.resolve("no-docker.sock"));

        assertEquals(ExitCodes.SANDBOX_UNAVAILABLE, run("-p", "x"));
        String message = err.toString();
        assertTrue(
                message.startsWith("dockhand: Docker does not answer at unix://" + temp.resolve("no-docker.sock")),
                message);
        assertTrue(
                message.strip()
                        .endsWith("start it (sudo scripts/docker-setup.sh), or run with --sandbox none to"
                                + " run commands unconfined."),
                message);
        assertEquals(0, model.requestCount());
    }

    @Test
    @Tag("docker")
    void aMissingImageStopsTheRunBeforeTheModelIsCalled() {
        DockerRequired.check(workspace, variables);

        assertEquals(ExitCodes.SANDBOX_UNAVAILABLE, run("--sandbox-image", "dockhand-no-such-image:1", "-p", "x"));
        assertEquals(
                "dockhand: The sandbox image dockhand-no-such-image:1 is missing; build it with"
                        + " scripts/build-sandbox-image.sh, name another with --sandbox-image, or run with --sandbox none.\n",
                err.toString());
        assertEquals(0, model.requestCount());
    }

    @Test
    @Tag("docker")
    void commandsRunInTheContainerByDefault() {
        DockerRequired.check(workspace, variables);
        model.enqueue(
                calls(toolCall(
                        "d1",
                        "run_shell_command",
                        "{\"command\":\"test -f /.dockerenv && echo in-container; echo ${OPENAI_API_KEY:-no-key}\"}")),
                answer("Ran it."));

        assertEquals(ExitCodes.OK, run("--yolo", "-p", "where am I"));

        model.takeRequest();
        assertEquals("Exit code: 0\nOutput:\nin-container\nno-key", toolResult(model.takeRequest(), 3));
        assertEquals(
                "",
                err.toString()
                        .lines()
                        .filter(line -> line.contains("unconfined"))
                        .findAny()
                        .orElse(""));
    }

    @Test
    @Tag("docker")
    void aSymlinkMadeInsideTheContainerLeadsNowhere() throws Exception {
        DockerRequired.check(workspace, variables);
        model.enqueue(
                calls(toolCall("l1", "run_shell_command", "{\"command\":\"ln -s /etc escape\"}")),
                calls(
                        toolCall("l2", "read_file", "{\"path\":\"escape/passwd\"}"),
                        toolCall("l3", "write_file", "{\"path\":\"escape/evil\",\"content\":\"x\"}")),
                answer("Refused, as it should be."));

        assertEquals(ExitCodes.OK, run("--yolo", "-p", "escape"));

        assertTrue(Files.isSymbolicLink(workspace.resolve("escape")));
        model.takeRequest();
        model.takeRequest();
        JsonNode last = model.takeRequest();
        assertTrue(
                toolResult(last, 5).startsWith("'escape/passwd' goes through the symlink escape to /etc"),
                toolResult(last, 5));
        assertTrue(
                toolResult(last, 6).startsWith("'escape/evil' goes through the symlink escape to /etc"),
                toolResult(last, 6));
    }

    @Test
    void theReplRunsBangCommandsInTheContainer() throws Exception {
        DockerRequired.check(workspace, variables);
        try (ReplHarness repl = new ReplHarness(cli, "--sandbox", "docker")) {
            repl.await("sandbox docker");
            repl.submit("!test -f /.dockerenv && echo inside a container; pwd");
            repl.await("exit 0");

            assertEquals(
                    List.of(
                            "$ test -f /.dockerenv && echo inside a container; pwd",
                            "inside a container",
                            workspace.toString(),
                            "exit 0"),
                    repl.rowsFrom("$ test -f").subList(0, 4));
            assertEquals(0, model.requestCount());
        }
    }
}
