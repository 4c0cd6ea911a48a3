package dev.dockhand.core.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.CompletedCall;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PreToolUse and PostToolUse hooks in a scheduler round, their commands played by {@link FakeHookProcess}. */
class HooksAroundCallsTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final FakeHookProcess process = new FakeHookProcess();
    private final List<ApprovalRequest> asked = new ArrayList<>();
    private final TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);

    private static Settings.HookMatcher matcher(String matcher, String... commands) {
        return new Settings.HookMatcher(
                matcher,
                List.of(commands).stream()
                        .map(command -> new Settings.HookCommand("command", command, 5))
                        .toList());
    }

    private CompletedCall run(String event, Settings.HookMatcher matcher, String arguments) {
        Hooks hooks = new Hooks(HookDefinitions.of(Map.of(event, List.of(matcher)), null), process, workspace, events);
        hooks.session("s-1", workspace.resolve("s-1.jsonl"));
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(edit)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                ApprovalMode.DEFAULT,
                events);
        scheduler.setHooks(hooks);
        return scheduler
                .runRound(List.of(new ToolCall("c1", "edit", arguments)), new Cancellation())
                .get(0);
    }

    private List<String> warnings() {
        return events.ofType(AgentEvent.Warning.class).stream()
                .map(AgentEvent.Warning::message)
                .toList();
    }

    @Test
    void aPreToolUseHookThatExitsTwoBlocksTheCallBeforeAnyQuestionAndItsStderrIsTheReason() {
        process.answer("policy", FakeHookProcess.exit(2, "", "no edits on Fridays\n"));

        CompletedCall done = run("PreToolUse", matcher("edit", "policy"), "{\"text\":\"x\"}");

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The edit call was not run: a PreToolUse hook blocked it: no edits on Fridays"),
                done.result());
        assertEquals(List.of(), edit.runs);
        assertEquals(List.of(), asked);
    }

    @Test
    void aPreToolUseHookGetsTheCallUnderClaudeCodesFieldNames() {
        process.answer("log", FakeHookProcess.exit(0, "", ""));

        run("PreToolUse", matcher("", "log"), "{\"text\":\"x\"}");

        assertEquals(
                List.of(Json.read("{\"session_id\":\"s-1\",\"transcript_path\":\"" + workspace.resolve("s-1.jsonl")
                        + "\",\"cwd\":\"" + workspace + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"permission_mode\":\"default\",\"tool_name\":\"edit\",\"tool_input\":{\"text\":\"x\"},"
                        + "\"tool_use_id\":\"c1\"}")),
                process.inputs("log"));
        assertEquals(
                Map.of("DOCKHAND_PROJECT_DIR", workspace.toString(), "CLAUDE_PROJECT_DIR", workspace.toString()),
                process.requests.get(0).environment());
        assertEquals(List.of("x"), edit.runs);
    }

    @Test
    void aDenyInJsonBlocksWithItsReason() {
        process.answer(
                "policy",
                FakeHookProcess.exit(
                        0,
                        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                                + "\"permissionDecisionReason\":\"edit docs only\"}}",
                        ""));

        CompletedCall done = run("PreToolUse", matcher("edit", "policy"), "{\"text\":\"x\"}");

        assertEquals(
                "The edit call was not run: a PreToolUse hook blocked it: edit docs only",
                done.result().llmContent());
        assertEquals(List.of(), edit.runs);
    }

    @Test
    void changedArgumentsAreValidatedAgainAndTheCallRunsWithThemTellingTheModel() {
        process.answer(
                "rewrite",
                FakeHookProcess.exit(0, "{\"hookSpecificOutput\":{\"updatedInput\":{\"text\":\"safer\"}}}", ""));

        CompletedCall done = run("PreToolUse", matcher("edit", "rewrite"), "{\"text\":\"risky\"}");

        assertEquals(List.of("safer"), edit.runs);
        // The question, the events and the run report show the call as it ran.
        assertEquals(
                new ToolCall("c1", "edit", "{\"text\":\"safer\"}"),
                events.ofType(AgentEvent.ToolCallFinished.class).get(0).call());
        assertEquals("{\"text\":\"safer\"}", asked.get(0).call().arguments());
        assertEquals(
                ToolResult.success(
                        "echo: safer\n\n<hook_context event=\"PreToolUse\">\nA PreToolUse hook changed this call's"
                                + " arguments; it ran with {\"text\":\"safer\"}\n</hook_context>",
                        "echoed"),
                done.result());
    }

    @Test
    void changedArgumentsTheSchemaRefusesEndTheCallUnrun() {
        process.answer(
                "rewrite", FakeHookProcess.exit(0, "{\"hookSpecificOutput\":{\"updatedInput\":{\"txt\":1}}}", ""));

        CompletedCall done = run("PreToolUse", matcher("edit", "rewrite"), "{\"text\":\"risky\"}");

        assertEquals(List.of(), edit.runs);
        assertEquals(List.of(), asked);
        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "The edit call was not run: a PreToolUse hook changed its arguments to {\"txt\":1}, which the"
                                + " tool refuses. Invalid arguments for edit: $: property 'txt' is not defined in the"
                                + " schema and the schema does not allow additional properties; $: required property"
                                + " 'text' not found. Call it again with arguments that match its schema."),
                done.result());
    }

    @Test
    void postToolUseHooksAddNotesToTheResultTheModelReads() {
        process.answer("lint", FakeHookProcess.exit(2, "", "line 3: trailing space\n"));
        process.answer(
                "fmt",
                FakeHookProcess.exit(0, "{\"hookSpecificOutput\":{\"additionalContext\":\"formatted the file\"}}", ""));
        process.answer("quiet", FakeHookProcess.exit(0, "plain text is for the user's log only", ""));

        CompletedCall done = run("PostToolUse", matcher("edit", "lint", "fmt", "quiet"), "{\"text\":\"x\"}");

        assertEquals(
                ToolResult.success(
                        "echo: x\n\n<hook_context event=\"PostToolUse\">\nline 3: trailing space\nformatted the file\n"
                                + "</hook_context>",
                        "echoed"),
                done.result());
        assertEquals(
                Json.read("{\"content\":\"echo: x\",\"is_error\":false}"),
                process.inputs("lint").get(0).get("tool_response"));
    }

    @Test
    void aHookThatFailsTimesOutOrPrintsJunkIsReportedAndTheCallGoesOnUnchanged() {
        process.answer("crash", FakeHookProcess.exit(1, "", "Traceback: boom\n"));
        process.answer("slow", new HookProcess.Finished(-1, "", "", HookProcess.Ending.TIMED_OUT));
        process.answer("junk", FakeHookProcess.exit(0, "{not json", ""));
        process.answer("wrong", FakeHookProcess.exit(0, "{\"decision\":\"maybe\"}", ""));

        CompletedCall done = run("PreToolUse", matcher("edit", "crash", "slow", "junk", "wrong"), "{\"text\":\"x\"}");

        assertEquals(ToolResult.success("echo: x", "echoed"), done.result());
        assertEquals(
                List.of(
                        "The PreToolUse hook `crash` exited with code 1 (Traceback: boom); Dockhand went on without"
                                + " it.",
                        "The PreToolUse hook `slow` did not finish within 5 s and was stopped; Dockhand went on"
                                + " without it.",
                        "The PreToolUse hook `junk` printed something that starts like JSON but is not ({not json);"
                                + " Dockhand went on without it.",
                        "The PreToolUse hook `wrong` answered with JSON Dockhand cannot use: 'decision' must be"
                                + " \"block\" or \"approve\", was \"maybe\"; Dockhand went on without it."),
                warnings());
    }

    @Test
    void whatAHookAddsIsCutToTheLimit() {
        String longText = "y".repeat(Hooks.TEXT_LIMIT + 10);
        process.answer(
                "chatty",
                FakeHookProcess.exit(0, "{\"hookSpecificOutput\":{\"additionalContext\":\"" + longText + "\"}}", ""));

        CompletedCall done = run("PostToolUse", matcher("", "chatty"), "{\"text\":\"x\"}");

        assertEquals(
                "echo: x\n\n<hook_context event=\"PostToolUse\">\n" + "y".repeat(Hooks.TEXT_LIMIT) + "\n[… the hook"
                        + " printed " + (Hooks.TEXT_LIMIT + 10) + " characters; the first " + Hooks.TEXT_LIMIT
                        + " are kept]\n</hook_context>",
                done.result().llmContent());
    }

    @Test
    void hooksOfOtherToolsDoNotRun() {
        process.answer("shell-only", FakeHookProcess.exit(2, "", "no"));

        CompletedCall done = run("PreToolUse", matcher("run_shell_command", "shell-only"), "{\"text\":\"x\"}");

        assertEquals(List.of(List.of(), List.of("x")), List.of(process.requests, edit.runs));
        assertEquals(ToolResult.success("echo: x", "echoed"), done.result());
    }
}
