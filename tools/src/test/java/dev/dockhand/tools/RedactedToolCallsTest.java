package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CompletedCall;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.sandbox.LocalSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Placeholders the model writes back reach the file tools and the shell as the values they stand for. */
class RedactedToolCallsTest {
    @TempDir
    Path workspace;

    private final LocalSandbox sandbox = new LocalSandbox(Map.of("PATH", System.getenv("PATH")));
    private final EventRecorder events = new EventRecorder();
    private final String token = "glpat-" + random(20);

    @AfterEach
    void close() {
        sandbox.close();
    }

    private static String random(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        Random random = new Random(20261125L);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private CoreToolScheduler scheduler() {
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(
                        List.of(new ReadFileTool(), new EditTool(), new WriteFileTool(), new RunShellCommandTool())),
                TestEnvironments.environment(workspace, sandbox),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                events);
        scheduler.setRedactor(Redactor.of(SecretRules.builtIn(), new SecretValues(), Set.of(), problem -> {}));
        return scheduler;
    }

    private static String content(CompletedCall call) {
        return call.result().llmContent();
    }

    @Test
    void writeFileEditAndTheShellGetTheValuesAndTheModelSeesPlaceholdersAgain() throws Exception {
        Files.writeString(workspace.resolve("ci.env"), "GITLAB_TOKEN=" + token + "\nRETRIES=2\n");
        CoreToolScheduler scheduler = scheduler();
        String read = content(scheduler
                .runRound(List.of(new ToolCall("r", "read_file", "{\"path\":\"ci.env\"}")), new Cancellation())
                .get(0));
        assertEquals(false, read.contains(token), read);
        String placeholder = "[REDACTED:gitlab-pat:1]";

        List<CompletedCall> done = scheduler.runRound(
                List.of(
                        new ToolCall(
                                "e",
                                "edit",
                                "{\"path\":\"ci.env\",\"old_string\":\"GITLAB_TOKEN=" + placeholder
                                        + "\\nRETRIES=2\",\"new_string\":\"GITLAB_TOKEN=" + placeholder
                                        + "\\nRETRIES=3\"}"),
                        new ToolCall(
                                "w",
                                "write_file",
                                "{\"path\":\"copy.env\",\"content\":\"TOKEN=" + placeholder + "\\n\"}"),
                        new ToolCall(
                                "s",
                                "run_shell_command",
                                "{\"command\":\"printf %s '" + placeholder + "' > shell.txt; cat shell.txt\"}")),
                new Cancellation());

        assertEquals(
                List.of("GITLAB_TOKEN=" + token + "\nRETRIES=3\n", "TOKEN=" + token + "\n", token),
                List.of(
                        Files.readString(workspace.resolve("ci.env")),
                        Files.readString(workspace.resolve("copy.env")),
                        Files.readString(workspace.resolve("shell.txt"))));
        assertEquals(
                List.of(false, false, false),
                done.stream().map(call -> content(call).contains(token)).toList());
        assertEquals(
                List.of(),
                events.ofType(AgentEvent.ToolOutput.class).stream()
                        .filter(output -> output.line().contains(token))
                        .toList());
        assertEquals("Exit code: 0\nOutput:\n" + placeholder, content(done.get(2)));
    }
}
