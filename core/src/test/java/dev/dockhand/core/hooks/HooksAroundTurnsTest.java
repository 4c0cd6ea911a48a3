package dev.dockhand.core.hooks;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** UserPromptSubmit, Stop and SessionStart hooks around turns of a loop that talks to a scripted model. */
class HooksAroundTurnsTest {
    @TempDir
    Path workspace;

    private final ScriptedModel model = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();
    private final FakeHookProcess process = new FakeHookProcess();
    private Hooks hooks;

    @AfterEach
    void stopServer() {
        model.close();
    }

    private AgentLoop loop(Map<String, List<Settings.HookMatcher>> configured, Integer stopLimit, int maxTurns) {
        hooks = new Hooks(HookDefinitions.of(configured, stopLimit), process, workspace, events);
        hooks.session("s-1", workspace.resolve("s-1.jsonl"));
        ToolRegistry registry = new ToolRegistry(List.of());
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                events);
        scheduler.setHooks(hooks);
        AgentLoop loop = new AgentLoop(
                OpenAiClient.create(model.baseUrl(), "sk-test"),
                "test-model",
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                maxTurns,
                events);
        loop.setHooks(hooks);
        return loop;
    }

    private static Map<String, List<Settings.HookMatcher>> hook(String event, String... commands) {
        return Map.of(
                event,
                List.of(new Settings.HookMatcher(
                        null,
                        List.of(commands).stream()
                                .map(command -> new Settings.HookCommand("command", command, 5))
                                .toList())));
    }

    private static JsonNode messages(String... roleAndContent) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < roleAndContent.length; i += 2) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"role\":\"")
                    .append(roleAndContent[i])
                    .append("\",\"content\":")
                    .append(Json.write(roleAndContent[i + 1]))
                    .append("}");
        }
        return Json.read(json.append("]").toString());
    }

    private List<String> warnings() {
        return events.ofType(AgentEvent.Warning.class).stream()
                .map(AgentEvent.Warning::message)
                .toList();
    }

    @Test
    void userPromptSubmitStdoutAndJsonContextGoWithThePrompt() throws Exception {
        process.answer("branch", FakeHookProcess.exit(0, "on branch main\n", ""));
        process.answer(
                "date",
                FakeHookProcess.exit(0, "{\"hookSpecificOutput\":{\"additionalContext\":\"today is Monday\"}}", ""));
        model.enqueue(answer("Hi."));

        TurnResult result =
                loop(hook("UserPromptSubmit", "branch", "date"), null, 10).run("hello", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals(
                messages(
                        "system",
                        "SYSTEM",
                        "user",
                        "hello\n\n<hook_context event=\"UserPromptSubmit\">\non branch main\ntoday is Monday\n"
                                + "</hook_context>"),
                model.takeRequest().get("messages"));
        assertEquals(
                Json.read("{\"session_id\":\"s-1\",\"transcript_path\":\"" + workspace.resolve("s-1.jsonl")
                        + "\",\"cwd\":\"" + workspace + "\",\"hook_event_name\":\"UserPromptSubmit\","
                        + "\"prompt\":\"hello\"}"),
                process.inputs("branch").get(0));
    }

    @Test
    void aSecretAHookPrintsReachesTheModelAsAPlaceholder() throws Exception {
        String token = "tok-" + "Qx7vR2mK9pL4sN8w";
        process.answer("leak", FakeHookProcess.exit(0, "deploy token " + token + "\n", ""));
        model.enqueue(answer("Hi."));
        AgentLoop loop = loop(hook("UserPromptSubmit", "leak"), null, 10);
        hooks.setRedactor(dev.dockhand.core.redaction.Redactor.of(
                dev.dockhand.core.redaction.SecretRules.builtIn(),
                new dev.dockhand.core.redaction.SecretValues().add("deploy-token", token),
                java.util.Set.of(),
                problem -> {}));

        loop.run("hello", new Cancellation());

        assertEquals(
                messages(
                        "system",
                        "SYSTEM",
                        "user",
                        "hello\n\n<hook_context event=\"UserPromptSubmit\">\ndeploy token [REDACTED:deploy-token:1]\n"
                                + "</hook_context>"),
                model.takeRequest().get("messages"));
    }

    @Test
    void aBlockedPromptIsNeitherSentNorKeptAndTheUserIsToldWhy() throws Exception {
        process.answer("guard", FakeHookProcess.exit(2, "", "that looks like a key\n"));
        AgentLoop loop = loop(hook("UserPromptSubmit", "guard"), null, 10);

        TurnResult result = loop.run("my key is sk-123", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.PROMPT_BLOCKED, "", 0, new TokenUsage(0, 0)), result);
        assertEquals(1, loop.conversation().messages().size());
        assertEquals(0, model.requestCount());
        assertEquals(
                List.of("A UserPromptSubmit hook (`guard`) blocked the prompt: that looks like a key"), warnings());
    }

    @Test
    void aStopHookSendsTheModelBackToWorkAtMostTheLimitThenTheTurnEnds() throws Exception {
        process.answer("tests", input -> FakeHookProcess.exit(2, "", "the tests fail\n"));
        model.enqueue(answer("Done."), answer("Fixed."), answer("Really fixed."));

        TurnResult result = loop(hook("Stop", "tests"), 2, 10).run("fix it", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.ANSWERED, "Really fixed.", 3, result.usage()), result);
        String goOn = "A Stop hook did not let you end the turn yet. Its reason:\n\nthe tests fail";
        model.takeRequest();
        model.takeRequest();
        assertEquals(
                messages(
                        "system",
                        "SYSTEM",
                        "user",
                        "fix it",
                        "assistant",
                        "Done.",
                        "user",
                        goOn,
                        "assistant",
                        "Fixed.",
                        "user",
                        goOn),
                model.takeRequest().get("messages"));
        assertEquals(
                List.of(false, true, true),
                process.inputs("tests").stream()
                        .map(input -> input.get("stop_hook_active").booleanValue())
                        .toList());
        assertEquals(
                List.of("Done.", "Fixed.", "Really fixed."),
                process.inputs("tests").stream()
                        .map(input -> input.get("last_assistant_message").textValue())
                        .toList());
        assertEquals(
                List.of(
                        "A Stop hook asked the model to go on: the tests fail",
                        "A Stop hook asked the model to go on: the tests fail",
                        "A Stop hook asked the model to go on, but this turn already went on 2 time(s) for Stop"
                                + " hooks (stopHookLimit 2), so it ends: the tests fail"),
                warnings());
    }

    @Test
    void continueFalseAtStopEndsTheTurnWhateverAnotherHookAsks() throws Exception {
        process.answer("tests", FakeHookProcess.exit(0, "{\"decision\":\"block\",\"reason\":\"run the tests\"}", ""));
        process.answer("enough", FakeHookProcess.exit(0, "{\"continue\":false,\"stopReason\":\"budget\"}", ""));
        model.enqueue(answer("Done."));

        TurnResult result = loop(hook("Stop", "tests", "enough"), null, 10).run("go", new Cancellation());

        assertEquals(List.of(TurnResult.Outcome.ANSWERED, 1), List.of(result.outcome(), result.requests()));
    }

    @Test
    void sessionStartContextGoesWithTheConversationsFirstPromptOnly() throws Exception {
        process.answer("todo", FakeHookProcess.exit(0, "open issues: 3\n", ""));
        model.enqueue(answer("One."), answer("Two."));
        AgentLoop loop = loop(hook("SessionStart", "todo"), null, 10);
        hooks.sessionStart("startup", new Cancellation());

        loop.run("first", new Cancellation());
        loop.run("second", new Cancellation());

        model.takeRequest();
        assertEquals(
                messages(
                        "system",
                        "SYSTEM",
                        "user",
                        "first\n\n<hook_context event=\"SessionStart\">\nopen issues: 3\n</hook_context>",
                        "assistant",
                        "One.",
                        "user",
                        "second"),
                model.takeRequest().get("messages"));
        assertEquals("startup", process.inputs("todo").get(0).get("source").textValue());
    }

    @Test
    void aFailingTurnHookIsReportedAndTheTurnGoesOn() throws Exception {
        process.answer("broken", FakeHookProcess.exit(127, "", "bash: broken: command not found\n"));
        model.enqueue(answer("Hi."));

        TurnResult result = loop(hook("UserPromptSubmit", "broken"), null, 10).run("hello", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals(
                messages("system", "SYSTEM", "user", "hello"),
                model.takeRequest().get("messages"));
        assertEquals(
                List.of("The UserPromptSubmit hook `broken` exited with code 127 (bash: broken: command not found);"
                        + " Dockhand went on without it."),
                warnings());
    }
}
