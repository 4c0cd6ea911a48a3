package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The permission rules come before the approval mode: deny holds in yolo, ask asks in yolo, allow skips a question. */
class PermissionApprovalTest {
    @TempDir
    Path workspace;

    private final List<ApprovalRequest> asked = new ArrayList<>();
    private final Shell shell = new Shell();

    /** A stand-in for run_shell_command: same name, kind and argument, records what it would run. */
    static final class Shell implements Tool<Shell.Params> {
        record Params(String command) {}

        final List<String> runs = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "run_shell_command";
        }

        @Override
        public String description() {
            return "Runs a command.";
        }

        @Override
        public ObjectNode parameterSchema() {
            return Schema.object()
                    .required("command", Schema.string("The command."))
                    .build();
        }

        @Override
        public ToolKind kind() {
            return ToolKind.EXECUTE;
        }

        @Override
        public Class<Params> paramsType() {
            return Params.class;
        }

        @Override
        public String summarize(Params params) {
            return params.command();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            runs.add(params.command());
            return ToolResult.success("ran", "ran");
        }
    }

    private CoreToolScheduler scheduler(ApprovalMode mode, String... rules) {
        List<PermissionRule> parsed = new ArrayList<>();
        for (String rule : rules) {
            int space = rule.indexOf(' ');
            parsed.add(PermissionRule.parse(
                    PermissionRule.Decision.valueOf(rule.substring(0, space)), rule.substring(space + 1), "user"));
        }
        return new CoreToolScheduler(
                new ToolRegistry(List.of(shell)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                mode,
                new ApprovalRules(ProtectedPaths.defaults(), Map.of(), Set.of(), new PermissionRules(parsed)),
                new EventRecorder());
    }

    private static ToolResult run(CoreToolScheduler scheduler, String command) {
        ObjectNode arguments = Json.object().put("command", command);
        return scheduler
                .runRound(List.of(new ToolCall("c1", "run_shell_command", arguments.toString())), new Cancellation())
                .get(0)
                .result();
    }

    @Test
    void aDenyRuleRefusesInYoloAndTellsTheModelWhichRule() {
        ToolResult result = run(scheduler(ApprovalMode.YOLO, "DENY run_shell_command(rm *)"), "ls && rm keep.txt");

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The run_shell_command call was not run: the permission rule \"deny run_shell_command(rm *)\""
                                + " (user) refuses it, whatever the approval mode. Do not try to get around it"
                                + " another way: finish what you can without it and tell the user what was not"
                                + " done."),
                result);
        assertEquals(List.of(), shell.runs);
        assertEquals(List.of(), asked);
    }

    @Test
    void aDenyRuleBeatsTheSessionsApproval() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, "DENY run_shell_command(rm *)");
        scheduler.sessionApprovals().allow("run_shell_command");

        assertEquals(
                Optional.of(ToolErrorType.NOT_APPROVED), run(scheduler, "rm x").error());
    }

    @Test
    void anAskRuleAsksEvenInYoloAndIsNotRememberedForTheSession() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, "ASK run_shell_command(git push*)");

        run(scheduler, "git push");
        run(scheduler, "git status");

        assertEquals(
                List.of(Optional.of(new ApprovalRequest.Explicit(
                        "The permission rule \"ask run_shell_command(git push*)\" (user) asks the user about this"
                                + " call, whatever the approval mode.",
                        Optional.empty()))),
                asked.stream().map(ApprovalRequest::explicit).toList());
        assertEquals(List.of("git push", "git status"), shell.runs);
    }

    @Test
    void aCommandWhoseNameADenyRuleCannotCheckIsAskedAboutEvenInYolo() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, "DENY run_shell_command(rm *)");

        run(scheduler, "X=rm; $X -rf build");

        assertEquals(
                List.of(Optional.of(new ApprovalRequest.Explicit(
                        "The command's name is known only when it runs ($X, $(…), a glob), so the permission rule"
                                + " \"deny run_shell_command(rm *)\" (user) cannot be checked against it; the user"
                                + " decides about this call, whatever the approval mode.",
                        Optional.empty()))),
                asked.stream().map(ApprovalRequest::explicit).toList());
    }

    @Test
    void aSubAgentsHooksSeeTheModeItsParentIsIn() {
        CoreToolScheduler parent = scheduler(ApprovalMode.DEFAULT);
        List<ApprovalMode> seen = new CopyOnWriteArrayList<>();
        parent.setHooks(new CallHooks() {
            @Override
            public Before beforeCall(ToolCall call, ApprovalMode mode, Cancellation cancel) {
                seen.add(mode);
                return Before.GO_ON;
            }

            @Override
            public Optional<String> afterCall(
                    ToolCall call, ToolResult result, ApprovalMode mode, Cancellation cancel) {
                seen.add(mode);
                return Optional.empty();
            }
        });
        CoreToolScheduler child = parent.forSubAgent(
                new ToolRegistry(List.of(shell)), request -> ApprovalDecision.allowOnce(), new EventRecorder());
        parent.setApprovalMode(ApprovalMode.YOLO);

        run(child, "ls");

        assertEquals(List.of(ApprovalMode.YOLO, ApprovalMode.YOLO), seen);
    }

    @Test
    void anAllowRuleRunsWithoutAQuestionInDefaultModeOnlyWhenItCoversEveryPart() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, "ALLOW run_shell_command(git status*)");

        run(scheduler, "git status --short");
        run(scheduler, "git status; git push");

        assertEquals(
                List.of("git status; git push"),
                asked.stream().map(ApprovalRequest::summary).toList());
    }

    @Test
    void anAllowRuleDoesNotOpenPlanMode() {
        ToolResult result = run(scheduler(ApprovalMode.PLAN, "ALLOW run_shell_command"), "ls");

        assertEquals(Optional.of(ToolErrorType.NOT_APPROVED), result.error());
        assertEquals(List.of(), shell.runs);
    }

    @Test
    void rulesAddedWhileTheSessionRunsApplyToTheNextCall() {
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT);
        scheduler.setPermissions(scheduler
                .permissions()
                .with(List.of(PermissionRule.parse(PermissionRule.Decision.ALLOW, "run_shell_command(make*)", "s"))));

        run(scheduler, "make test");

        assertEquals(List.of(), asked);
        assertEquals(List.of("make test"), shell.runs);
    }
}
