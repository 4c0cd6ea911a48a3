package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.Schema;
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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Permission rules, protected paths and the approval question see a call as it will run, with the values of its
 * placeholders put back, while the conversation and the events keep the placeholders.
 */
class ExpandedCallApprovalTest {
    private static final String README = "Setup: PAYLOAD{--short; touch /tmp/pwned}";
    private static final String PLACEHOLDER = "[REDACTED:payload:1]";

    @TempDir
    Path workspace;

    private final List<ApprovalRequest> asked = new ArrayList<>();
    private final EventRecorder events = new EventRecorder();
    private final PermissionApprovalTest.Shell shell = new PermissionApprovalTest.Shell();
    private final Write write = new Write();
    private final TestTools.Echo edit = new Previewing("edit");
    private final TestTools.Echo fetch = new Previewing("web_fetch");

    /** Shows what it would do in its preview, as edit shows a diff. */
    private static final class Previewing extends TestTools.Echo {
        Previewing(String name) {
            super(name, ToolKind.EDIT);
        }

        @Override
        public Optional<String> preview(Params params, Workspace workspace) {
            return Optional.of("+" + params.text());
        }
    }

    /** A stand-in for write_file: same name, kind and path argument, and it says which path it writes. */
    static final class Write implements Tool<Write.Params> {
        record Params(String path, String content) {}

        final List<String> runs = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "write_file";
        }

        @Override
        public String description() {
            return "Writes a file.";
        }

        @Override
        public ObjectNode parameterSchema() {
            return Schema.object()
                    .required("path", Schema.string("The path."))
                    .required("content", Schema.string("The text."))
                    .build();
        }

        @Override
        public ToolKind kind() {
            return ToolKind.EDIT;
        }

        @Override
        public Class<Params> paramsType() {
            return Params.class;
        }

        @Override
        public String summarize(Params params) {
            return params.path();
        }

        @Override
        public List<String> writes(Params params) {
            return List.of(params.path());
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            runs.add(params.path());
            return ToolResult.success("wrote", "wrote");
        }
    }

    /** A scheduler whose redactor has turned the README's payload into {@link #PLACEHOLDER}. */
    private CoreToolScheduler scheduler(ApprovalMode mode, SecretRules.Rule pattern, String... rules) {
        List<PermissionRule> parsed = new ArrayList<>();
        for (String rule : rules) {
            int space = rule.indexOf(' ');
            parsed.add(PermissionRule.parse(
                    PermissionRule.Decision.valueOf(rule.substring(0, space)), rule.substring(space + 1), "user"));
        }
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(shell, write, edit, fetch)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                mode,
                new ApprovalRules(ProtectedPaths.defaults(), Map.of(), Set.of(), new PermissionRules(parsed)),
                events);
        Redactor redactor =
                Redactor.of(SecretRules.builtIn().with(List.of(pattern)), new SecretValues(), Set.of(), problem -> {
                    throw new AssertionError(problem);
                });
        assertEquals(
                "Setup: PAYLOAD{" + PLACEHOLDER + "}", redactor.redact(README).text());
        scheduler.setRedactor(redactor);
        return scheduler;
    }

    private static SecretRules.Rule payload() {
        return SecretRules.Rule.of("payload", "PAYLOAD\\{([^}]*)\\}");
    }

    private static ToolCall shellCall(String command) {
        return new ToolCall(
                "c1", "run_shell_command", Json.object().put("command", command).toString());
    }

    private static ToolResult run(CoreToolScheduler scheduler, ToolCall call) {
        return scheduler.runRound(List.of(call), new Cancellation()).get(0).result();
    }

    @Test
    void aDenyRuleSeesTheCommandAPlaceholderHidesAndAnAllowRuleOfItsPrefixDoesNotLetItRun() {
        CoreToolScheduler scheduler = scheduler(
                ApprovalMode.DEFAULT,
                payload(),
                "ALLOW run_shell_command(git status *)",
                "DENY run_shell_command(touch *)");

        ToolResult result = run(scheduler, shellCall("git status " + PLACEHOLDER));

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The run_shell_command call was not run: the permission rule \"deny run_shell_command(touch"
                                + " *)\" (user) refuses it, whatever the approval mode. Do not try to get around it"
                                + " another way: finish what you can without it and tell the user what was not"
                                + " done."),
                result);
        assertEquals(List.of(), shell.runs);
        assertEquals(List.of(), asked);
    }

    @Test
    void anAllowRuleThatCoversThePlaceholderButNotTheCommandAsksAndTheQuestionShowsWhatRuns() {
        CoreToolScheduler scheduler =
                scheduler(ApprovalMode.DEFAULT, payload(), "ALLOW run_shell_command(git status *)");

        run(scheduler, shellCall("git status " + PLACEHOLDER));

        assertEquals(1, asked.size());
        assertEquals(
                shellCall("git status --short; touch /tmp/pwned"), asked.get(0).asShown());
        // What an approver may log or save keeps the placeholder: a CI's stderr, an "always allow" rule.
        assertEquals(
                List.of(shellCall("git status " + PLACEHOLDER), "git status " + PLACEHOLDER),
                List.of(asked.get(0).call(), asked.get(0).summary()));
        assertEquals(List.of("git status --short; touch /tmp/pwned"), shell.runs);
        // The conversation and the events keep the placeholder: the secret reaches neither the model nor the file.
        assertEquals(
                List.of(shellCall("git status " + PLACEHOLDER)),
                events.ofType(AgentEvent.ToolCallFinished.class).stream()
                        .map(AgentEvent.ToolCallFinished::call)
                        .toList());
    }

    @Test
    void aProtectedPathBehindAPlaceholderNeedsTheUsersOwnYesEvenInYolo() {
        CoreToolScheduler scheduler = scheduler(
                ApprovalMode.YOLO, SecretRules.Rule.of("payload", "PAYLOAD\\{([^}]*)\\}"), "ALLOW write_file");
        Redactor redactor = scheduler.redactor();
        String hook = redactor.redact("PAYLOAD{.git/hooks/pre-commit}").text();
        String placeholder = hook.substring("PAYLOAD{".length(), hook.length() - 1);

        run(
                scheduler,
                new ToolCall(
                        "c1",
                        "write_file",
                        Json.object()
                                .put("path", placeholder)
                                .put("content", "x")
                                .toString()));

        assertEquals(1, asked.size());
        assertEquals(
                Optional.of(".git/hooks"), asked.get(0).explicit().flatMap(ApprovalRequest.Explicit::protectedEntry));
        assertEquals(List.of(".git/hooks/pre-commit"), write.runs);
    }

    @Test
    void anUntrustedProjectsPlaceholderRunsAsWrittenAndItsRulesAreMatchedOnThat() {
        CoreToolScheduler scheduler = scheduler(
                ApprovalMode.DEFAULT,
                payload().unexpanded(),
                "ALLOW run_shell_command(git status *)",
                "DENY run_shell_command(touch *)");

        ToolResult result = run(scheduler, shellCall("git status " + PLACEHOLDER));

        assertEquals(ToolResult.success("ran", "ran"), result);
        assertEquals(List.of("git status " + PLACEHOLDER), shell.runs);
        assertEquals(List.of(), asked);
    }

    @Test
    void thePreviewShowsAValueThatChangesTheTextOnlyForTheToolThatGetsIt() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, payload());
        String text = Json.object().put("text", "run: " + PLACEHOLDER).toString();

        scheduler.runRound(
                List.of(new ToolCall("c1", "edit", text), new ToolCall("c2", "web_fetch", text)), new Cancellation());

        assertEquals(
                List.of(Optional.of("+run: --short; touch /tmp/pwned"), Optional.of("+run: " + PLACEHOLDER)),
                asked.stream().map(ApprovalRequest::preview).toList());
        assertEquals(List.of("run: --short; touch /tmp/pwned"), edit.runs);
        assertEquals(List.of("run: " + PLACEHOLDER), fetch.runs);
    }

    @Test
    void hooksSeeTheCallAsItWillRunAndWhatTheySayBackOfItIsRedactedAgain() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, payload());
        String token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        String tokenPlaceholder = scheduler.redactor().redact(token).text();
        List<ToolCall> seen = new CopyOnWriteArrayList<>();
        scheduler.setHooks(new CallHooks() {
            @Override
            public Before beforeCall(ToolCall call, ApprovalMode mode, Cancellation cancel) {
                seen.add(call);
                return new Before.Blocked(
                        "refused " + Json.read(call.arguments()).get("command").asText());
            }

            @Override
            public Optional<String> afterCall(
                    ToolCall call, ToolResult result, ApprovalMode mode, Cancellation cancel) {
                return Optional.empty();
            }
        });

        ToolResult result = run(scheduler, shellCall("git status " + PLACEHOLDER + " " + tokenPlaceholder));

        // A policy hook checking "touch" finds it; the model is told the hook's reason with the values hidden again.
        assertEquals(List.of(shellCall("git status --short; touch /tmp/pwned " + token)), seen);
        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The run_shell_command call was not run: a PreToolUse hook blocked it: refused git status "
                                + PLACEHOLDER + " " + tokenPlaceholder),
                result);
        assertEquals(List.of(), shell.runs);
    }

    @Test
    void argumentsAHookChangesAreRecordedWithTheSecretsItWasGivenRedactedAgainEvenWithAQuoteInThem() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, payload());
        String secret = "pa\"ss\\word-7Qz";
        Redactor redactor =
                Redactor.of(SecretRules.builtIn(), new SecretValues().add("db", secret), Set.of(), problem -> {
                    throw new AssertionError(problem);
                });
        scheduler.setRedactor(redactor);
        String placeholder = redactor.redact(secret).text();
        scheduler.setHooks(new CallHooks() {
            @Override
            public Before beforeCall(ToolCall call, ApprovalMode mode, Cancellation cancel) {
                String command = Json.read(call.arguments()).get("command").asText();
                return new Before.GoOn(
                        Optional.of(Json.object()
                                .put("command", command + " --quiet")
                                .toString()),
                        Optional.empty());
            }

            @Override
            public Optional<String> afterCall(
                    ToolCall call, ToolResult result, ApprovalMode mode, Cancellation cancel) {
                return Optional.empty();
            }
        });

        run(scheduler, shellCall("login " + placeholder));

        assertEquals(List.of("login " + secret + " --quiet"), shell.runs);
        assertEquals(
                List.of(shellCall("login " + placeholder + " --quiet")),
                events.ofType(AgentEvent.ToolCallFinished.class).stream()
                        .map(AgentEvent.ToolCallFinished::call)
                        .toList());
    }
}
