package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes to protected paths, and kinds the rules keep out of yolo, need the user's own yes in every mode. */
class ExplicitApprovalTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<ApprovalRequest> asked = new ArrayList<>();
    private ApprovalDecision answer = ApprovalDecision.allowOnce();

    /** An EDIT tool that writes the file named by its text. */
    private final TestTools.Echo write = new TestTools.Echo("write", ToolKind.EDIT) {
        @Override
        public List<String> writes(Params params) {
            return List.of(params.text());
        }
    };

    /** A FETCH tool. */
    private final TestTools.Echo fetch = new TestTools.Echo("fetch", ToolKind.FETCH);

    @BeforeEach
    void repository() throws Exception {
        Files.createDirectories(workspace.resolve(".git/hooks"));
        Files.writeString(workspace.resolve(".git/config"), "[core]\n");
    }

    private CoreToolScheduler scheduler(ApprovalMode mode, ApprovalRules rules) {
        return new CoreToolScheduler(
                new ToolRegistry(List.of(write, fetch)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return answer;
                },
                mode,
                rules,
                events);
    }

    private List<CompletedCall> run(CoreToolScheduler scheduler, String tool, String text) {
        return scheduler.runRound(
                List.of(new ToolCall("c" + asked.size(), tool, "{\"text\":\"" + text + "\"}")), new Cancellation());
    }

    @Test
    void yoloAsksBeforeAHookIsWrittenAndSaysWhy() {
        run(scheduler(ApprovalMode.YOLO, ApprovalRules.DEFAULT), "write", ".git/hooks/pre-commit");

        assertEquals(
                List.of(Optional.of(new ApprovalRequest.Explicit(
                        ".git/hooks is protected: git runs the hooks in it on your machine. Only the user's own yes to"
                                + " this call lets a tool change it, whatever the approval mode.",
                        Optional.of(".git/hooks")))),
                asked.stream().map(ApprovalRequest::explicit).toList());
        assertEquals(List.of(".git/hooks/pre-commit"), write.runs);
    }

    @Test
    void anExplicitYesIsNeverRememberedForTheSession() {
        answer = ApprovalDecision.allowForSession();
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, ApprovalRules.DEFAULT);

        run(scheduler, "write", ".git/config");
        run(scheduler, "write", ".git/config");
        boolean rememberedAfterProtected = scheduler.sessionApprovals().isAllowed("write");
        run(scheduler, "write", "notes.txt");

        assertEquals(false, rememberedAfterProtected);
        // The call to an ordinary file is asked too, since no "for this session" had been recorded.
        assertEquals(3, asked.size());
    }

    @Test
    void aDenialIsTheModelsResult() {
        answer = ApprovalDecision.refused("nobody can approve it here.");

        List<CompletedCall> done =
                run(scheduler(ApprovalMode.YOLO, ApprovalRules.DEFAULT), "write", ".vscode/tasks.json");

        assertEquals(
                ToolResult.error(ToolErrorType.NOT_APPROVED, "The write call was not run: nobody can approve it here."),
                done.get(0).result());
        assertEquals(List.of(), write.runs);
    }

    @Test
    void planModeRefusesProtectedWritesWithoutAsking() {
        List<CompletedCall> done = run(scheduler(ApprovalMode.PLAN, ApprovalRules.DEFAULT), "write", ".git/config");

        assertEquals(
                Optional.of(ToolErrorType.NOT_APPROVED), done.get(0).result().error());
        assertEquals(List.of(), asked);
    }

    @Test
    void aSymlinkIntoTheGitFolderIsProtectedLikeTheFolder() throws Exception {
        Files.createSymbolicLink(workspace.resolve("innocent"), workspace.resolve(".git/hooks"));

        run(scheduler(ApprovalMode.YOLO, ApprovalRules.DEFAULT), "write", "innocent/post-commit");

        assertEquals(1, asked.size());
        assertEquals(
                Optional.of(".git/hooks"), asked.get(0).explicit().flatMap(ApprovalRequest.Explicit::protectedEntry));
    }

    @Test
    void aFileWhereAProtectedFolderThatIsALinkLeadsIsProtectedLikeTheFolder() throws Exception {
        Files.createDirectories(workspace.resolve("cfg"));
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        ApprovalRules rules = new ApprovalRules(ProtectedPaths.defaults(), Map.of());

        run(scheduler(ApprovalMode.YOLO, rules), "write", "cfg/tasks.json");

        assertEquals(
                List.of(Optional.of(".vscode")),
                asked.stream()
                        .map(request -> request.explicit().flatMap(ApprovalRequest.Explicit::protectedEntry))
                        .toList());
    }

    @Test
    void aFileWhereADanglingProtectedLinkWouldLeadIsProtectedLikeTheFolder() throws Exception {
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("cfg"));
        ApprovalRules rules = new ApprovalRules(ProtectedPaths.defaults(), Map.of());

        run(scheduler(ApprovalMode.YOLO, rules), "write", "cfg/tasks.json");

        assertEquals(
                List.of(Optional.of(new ApprovalRequest.Explicit(
                        ".vscode is protected: VS Code runs the tasks and obeys the settings in it (cfg/tasks.json is"
                                + " .vscode/tasks.json through the link .vscode). Only the user's own yes to this call"
                                + " lets a tool change it, whatever the approval mode.",
                        Optional.of(".vscode")))),
                asked.stream().map(ApprovalRequest::explicit).toList());
    }

    @Test
    void aProtectedLinkToTheWorkspaceLeavesItsOtherFilesUnasked() throws Exception {
        Files.createSymbolicLink(workspace.resolve(".vscode"), Path.of("."));
        ApprovalRules rules = new ApprovalRules(ProtectedPaths.defaults(), Map.of());

        run(scheduler(ApprovalMode.YOLO, rules), "write", "src/Main.java");
        run(scheduler(ApprovalMode.YOLO, rules), "write", ".vscode/tasks.json");

        assertEquals(
                List.of(Optional.of(".vscode")),
                asked.stream()
                        .map(request -> request.explicit().flatMap(ApprovalRequest.Explicit::protectedEntry))
                        .toList());
        assertEquals(List.of("src/Main.java", ".vscode/tasks.json"), write.runs);
    }

    @Test
    void aPathTheUserAllowedIsWrittenWithoutAsking() {
        ApprovalRules rules = new ApprovalRules(new ProtectedPaths(List.of(), List.of(".git/hooks")), Map.of());

        run(scheduler(ApprovalMode.YOLO, rules), "write", ".git/hooks/pre-commit");
        run(scheduler(ApprovalMode.YOLO, rules), "write", ".git/config");

        assertEquals(List.of(".git/hooks/pre-commit", ".git/config"), write.runs);
        assertEquals(
                List.of(Optional.of(".git/config")),
                asked.stream()
                        .map(request -> request.explicit().flatMap(ApprovalRequest.Explicit::protectedEntry))
                        .toList());
    }

    @Test
    void aKindTheRulesKeepOutOfYoloAsks() {
        ApprovalRules rules =
                new ApprovalRules(ProtectedPaths.defaults(), Map.of(ToolKind.FETCH, "web fetches need a yes here."));

        run(scheduler(ApprovalMode.YOLO, rules), "fetch", "https://example.com");
        run(scheduler(ApprovalMode.YOLO, rules), "write", "notes.txt");

        assertEquals(
                List.of(Optional.of(new ApprovalRequest.Explicit("web fetches need a yes here.", Optional.empty()))),
                asked.stream().map(ApprovalRequest::explicit).toList());
    }

    @Test
    void aToolTheUserAllowedStillAsksBeforeItWritesAProtectedPath() {
        ApprovalRules rules = new ApprovalRules(ProtectedPaths.defaults(), Map.of(), java.util.Set.of("write"));

        run(scheduler(ApprovalMode.DEFAULT, rules), "write", ".git/hooks/pre-commit");
        run(scheduler(ApprovalMode.DEFAULT, rules), "write", "notes.txt");

        assertEquals(
                List.of(".git/hooks/pre-commit"),
                asked.stream().map(request -> request.summary()).toList());
        assertEquals(List.of(".git/hooks/pre-commit", "notes.txt"), write.runs);
    }

    // gemini-cli coreToolScheduler.test.ts: "should execute tool requiring confirmation directly without waiting" (YOLO
    // mode)
    @Test
    void ordinaryFilesInYoloAreNotAsked() {
        run(scheduler(ApprovalMode.YOLO, ApprovalRules.DEFAULT), "write", "src/Main.java");
        run(scheduler(ApprovalMode.YOLO, ApprovalRules.DEFAULT), "write", ".github/workflows/ci.yml");

        assertEquals(List.of(), asked);
    }

    /** An EDIT tool that writes "planted" to the file its text names, through the call's write check. */
    private static final class Planting extends TestTools.Base {
        Planting() {
            super("plant", ToolKind.EDIT);
        }

        @Override
        public List<String> writes(Params params) {
            return List.of(params.text());
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            try (WorkspaceFile file = context.openForWrite(params.text())) {
                file.write("planted\n".getBytes(StandardCharsets.UTF_8));
                return ToolResult.success("planted", "planted");
            } catch (PathOutsideWorkspaceException e) {
                return e.toResult();
            } catch (IOException e) {
                return ToolResult.error(ToolErrorType.IO_ERROR, e.toString());
            }
        }
    }

    @Test
    void anApprovedWriteToAHookThatIsALinkIsAskedAboutWhereItLeadsAndWritten() throws Exception {
        Files.createDirectories(workspace.resolve("scripts"));
        Files.writeString(workspace.resolve("scripts/pre-commit"), "#!/bin/sh\n");
        Files.createSymbolicLink(workspace.resolve(".git/hooks/pre-commit"), Path.of("../../scripts/pre-commit"));
        Planting plant = new Planting();
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(plant)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                ApprovalMode.YOLO,
                new ApprovalRules(ProtectedPaths.defaults(), Map.of()),
                events);

        List<CompletedCall> done = scheduler.runRound(
                List.of(new ToolCall("p", "plant", "{\"text\":\".git/hooks/pre-commit\"}")), new Cancellation());

        assertEquals(
                List.of(Optional.of("scripts/pre-commit")),
                asked.stream()
                        .map(request -> request.explicit().flatMap(ApprovalRequest.Explicit::protectedEntry))
                        .toList());
        assertEquals(ToolResult.success("planted", "planted"), done.get(0).result());
        assertEquals("planted\n", Files.readString(workspace.resolve("scripts/pre-commit")));
    }

    @Test
    void aLinkSwappedInWhileTheUserReadsTheQuestionCannotSteerTheWriteIntoAHook() throws Exception {
        Files.createDirectories(workspace.resolve("scripts/hooks"));
        Files.createSymbolicLink(workspace.resolve("d"), workspace.resolve("scripts"));
        Planting plant = new Planting();
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(plant)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    // A background command swaps the link while the question is on screen.
                    try {
                        Files.delete(workspace.resolve("d"));
                        Files.createSymbolicLink(workspace.resolve("d"), workspace.resolve(".git"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return ApprovalDecision.allowOnce();
                },
                ApprovalMode.DEFAULT,
                ApprovalRules.DEFAULT,
                events);

        List<CompletedCall> done = scheduler.runRound(
                List.of(new ToolCall("p", "plant", "{\"text\":\"d/hooks/pre-commit\"}")), new Cancellation());

        assertEquals(Optional.empty(), asked.get(0).explicit(), "asked as an ordinary edit of scripts/hooks");
        assertEquals(
                Optional.of(ToolErrorType.PATH_OUTSIDE_WORKSPACE),
                done.get(0).result().error());
        assertEquals(
                ".git/hooks is protected: git runs the hooks in it on your machine. The path led there only once the"
                        + " call ran, after it was approved, so nothing was written.",
                done.get(0).result().llmContent());
        assertEquals(false, Files.exists(workspace.resolve(".git/hooks/pre-commit")));
    }
}
