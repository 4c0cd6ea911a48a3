package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import dev.dockhand.core.testing.GitRepositories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The "done when", end to end: in a repository with a nested repository, a {@code --yolo} run in the Docker
 * sandbox whose model plants a pre-commit hook, {@code core.fsmonitor}, a hook in the nested repository and
 * Dockhand's own settings leaves all four unchanged, answers every call with why, and still commits.
 */
@Tag("docker")
public class ProtectedPathsDockerTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        if (System.getenv("DOCKER_HOST") != null) {
            cli.variables.put("DOCKER_HOST", System.getenv("DOCKER_HOST"));
        }
        GitRepositories.withNestedRepository(cli.workspace);
    }

    private static String shell(String command) {
        return Json.write(Json.object().put("command", command));
    }

    @Test
    void aYoloRunCannotPlantCodeThatRunsLaterOnTheHostAndStillCommits() throws Exception {
        DockerRequired.check(cli.workspace, cli.variables);
        String config = Files.readString(cli.workspace.resolve(".git/config"));
        String nestedHooks = String.join(",", hooks(cli.workspace.resolve("vendor/x/.git/hooks")));
        cli.model.enqueue(
                calls(
                        toolCall(
                                "1",
                                "run_shell_command",
                                shell("printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit"
                                        + " && chmod +x .git/hooks/pre-commit")),
                        toolCall(
                                "2",
                                "run_shell_command",
                                shell("printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> .git/config")),
                        toolCall(
                                "3",
                                "run_shell_command",
                                shell("printf '#!/bin/sh\\necho pwned\\n' > vendor/x/.git/hooks/post-commit")),
                        toolCall(
                                "4",
                                "write_file",
                                Json.write(Json.object()
                                        .put("path", ".dockhand/settings.json")
                                        .put("content", "{\"approvalMode\": \"yolo\"}"))),
                        toolCall(
                                "5",
                                "run_shell_command",
                                shell("echo b > b.txt && git add b.txt && git commit -q -m x"))),
                answer("The protected files are left alone, and b.txt is committed."));

        int exit = cli.run("--sandbox", "docker", "--yolo", "-p", "set the project up");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, exit, cli.err.toString());
        assertFalse(Files.exists(cli.workspace.resolve(".git/hooks/pre-commit")));
        assertEquals(config, Files.readString(cli.workspace.resolve(".git/config")));
        assertEquals(nestedHooks, String.join(",", hooks(cli.workspace.resolve("vendor/x/.git/hooks"))));
        assertFalse(Files.exists(cli.workspace.resolve(".dockhand/settings.json")));
        assertEquals("x\nfirst\n", GitRepositories.git(cli.workspace, "log", "--format=%s"));

        cli.model.takeRequest();
        JsonNode messages = cli.model.takeRequest().get("messages");
        for (int call = 3; call <= 5; call++) {
            String result = messages.get(call).get("content").asText();
            assertTrue(result.contains("A write failed on a protected path: in the sandbox"), result);
        }
        assertTrue(
                messages.get(6)
                        .get("content")
                        .asText()
                        .startsWith("The write_file call was not run: .dockhand is protected"),
                messages.get(6).toString());
        assertTrue(
                messages.get(7).get("content").asText().startsWith("Exit code: 0"),
                messages.get(7).toString());
        assertFalse(Files.exists(cli.workspace.resolve(".vscode")), "the session's empty folders are removed");
    }

    private static List<String> hooks(Path folder) throws Exception {
        try (var files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
