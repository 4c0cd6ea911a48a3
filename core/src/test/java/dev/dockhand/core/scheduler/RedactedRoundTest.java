package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedactedRoundTest {
    private static final String TOKEN = "ghp_" + random(36);

    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<ApprovalRequest> asked = new ArrayList<>();

    private CoreToolScheduler scheduler(ApprovalMode mode, Tool<?>... tools) {
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                mode,
                events);
        scheduler.setRedactor(Redactor.of(SecretRules.builtIn(), new SecretValues(), Set.of(), problem -> {}));
        return scheduler;
    }

    private static String random(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        java.util.Random random = new java.util.Random();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static ToolCall call(String id, String name, String text) {
        return new ToolCall(id, name, "{\"text\":\"" + text + "\"}");
    }

    /** Prints the token, line by line as it runs and in its result. */
    private static final class Printing extends TestTools.Base {
        Printing() {
            super("read_file", ToolKind.READ);
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            context.output().line("token=" + TOKEN);
            return ToolResult.success("GH_TOKEN=" + TOKEN, "1 line");
        }
    }

    /** Shows what it would do in its preview, as edit shows a diff. */
    private static final class Previewing extends TestTools.Echo {
        Previewing(String name, ToolKind kind) {
            super(name, kind);
        }

        @Override
        public Optional<String> preview(Params params, Workspace workspace) {
            return Optional.of("will write " + params.text());
        }
    }

    @Test
    void theResultAndTheStreamedLinesCarryPlaceholdersAndTheCallsStatusCountsThem() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, new Printing());

        List<CompletedCall> done = scheduler.runRound(List.of(call("c1", "read_file", "x")), new Cancellation());

        assertEquals(
                ToolResult.success("GH_TOKEN=[REDACTED:github-pat:1]", "1 line"),
                done.get(0).result());
        assertEquals(
                List.of(new AgentEvent.ToolOutput("c1", "token=[REDACTED:github-pat:1]")),
                events.ofType(AgentEvent.ToolOutput.class));
        assertEquals(
                "GH_TOKEN=[REDACTED:github-pat:1]",
                events.ofType(AgentEvent.ToolCallFinished.class).get(0).result().llmContent());
        assertEquals(1, Redactor.count(done.get(0).result().llmContent()));
    }

    @Test
    void placeholdersGoBackIntoEditWriteAndShellCallsOnlyAndThePreviewShowsThem() {
        TestTools.Echo edit = new Previewing("edit", ToolKind.EDIT);
        TestTools.Echo write = new TestTools.Echo("write_file", ToolKind.EDIT);
        TestTools.Echo shell = new TestTools.Echo("run_shell_command", ToolKind.EXECUTE);
        TestTools.Echo fetch = new TestTools.Echo("web_fetch", ToolKind.FETCH);
        TestTools.Echo mcp = new TestTools.Echo("mcp__github__create_issue", ToolKind.EXECUTE);
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, new Printing(), edit, write, shell, fetch, mcp);
        scheduler.runRound(List.of(call("c0", "read_file", "x")), new Cancellation());
        String placeholder = "[REDACTED:github-pat:1]";

        List<CompletedCall> done = scheduler.runRound(
                List.of(
                        call("c1", "edit", "T=" + placeholder),
                        call("c2", "write_file", "T=" + placeholder),
                        call("c3", "run_shell_command", "git push https://" + placeholder + "@h/r"),
                        call("c4", "web_fetch", "https://h/?t=" + placeholder),
                        call("c5", "mcp__github__create_issue", "t " + placeholder)),
                new Cancellation());

        assertEquals(List.of("T=" + TOKEN), edit.runs);
        assertEquals(List.of("T=" + TOKEN), write.runs);
        assertEquals(List.of("git push https://" + TOKEN + "@h/r"), shell.runs);
        assertEquals(List.of("https://h/?t=" + placeholder), fetch.runs);
        assertEquals(List.of("t " + placeholder), mcp.runs);
        // What the tools answered went back to the model with placeholders again, the calls as the model wrote them.
        assertEquals(
                List.of(
                        "echo: T=" + placeholder,
                        "echo: T=" + placeholder,
                        "echo: git push https://" + placeholder + "@h/r",
                        "echo: https://h/?t=" + placeholder,
                        "echo: t " + placeholder),
                done.stream().map(completed -> completed.result().llmContent()).toList());
        assertEquals(call("c1", "edit", "T=" + placeholder), done.get(0).call());
        assertEquals(Optional.of("will write T=" + placeholder), asked.get(0).preview());
    }

    @Test
    void aResultWhoseRedactionFailsWithAnErrorIsWithheldNotSentRaw() {
        // The seam: a settings pattern that backtracks without bound is dropped with a warning, and the warning's
        // listener here fails with an Error, as anything inside the redactor might.
        Redactor failing = Redactor.of(
                SecretRules.builtIn().with(List.of(SecretRules.Rule.of("hostile", "(.*a){12}$"))),
                new SecretValues(),
                Set.of(),
                problem -> {
                    throw new OutOfMemoryError("simulated: the redactor ran out of memory");
                });
        TestTools.Base printing = new TestTools.Base("read_file", ToolKind.READ) {
            @Override
            public ToolResult execute(Params params, ToolContext context) {
                return ToolResult.success("a".repeat(30) + "! GH_TOKEN=" + TOKEN, "1 line");
            }
        };
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, printing);
        scheduler.setRedactor(failing);

        List<CompletedCall> done = scheduler.runRound(List.of(call("c1", "read_file", "x")), new Cancellation());

        ToolResult withheld = ToolResult.error(
                ToolErrorType.INTERNAL,
                "The call ran, but its output was withheld: it could not be checked for secrets, since looking it over"
                        + " failed inside Dockhand (OutOfMemoryError). This is a Dockhand bug; try another way.");
        assertEquals(withheld, done.get(0).result());
        assertEquals(
                List.of(withheld),
                events.ofType(AgentEvent.ToolCallFinished.class).stream()
                        .map(AgentEvent.ToolCallFinished::result)
                        .toList());
    }
}
