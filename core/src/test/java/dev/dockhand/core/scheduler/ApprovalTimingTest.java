package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each call is asked about just before it runs, and calls run together only when their tools say they can. */
class ApprovalTimingTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<ApprovalRequest> asked = new ArrayList<>();

    private CoreToolScheduler scheduler(ApprovalMode mode, Tool<?>... tools) {
        return new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                mode,
                events);
    }

    private static ToolCall call(String id, String name, String text) {
        return new ToolCall(id, name, "{\"text\":\"" + text + "\"}");
    }

    /** Appends its text to notes.txt; its preview is the file as it is when the question is asked. */
    private static final class Append extends TestTools.Base {
        Append() {
            super("append", ToolKind.EDIT);
        }

        @Override
        public Optional<String> preview(Params params, Workspace workspace) {
            Path file = workspace.root().resolve("notes.txt");
            try {
                return Optional.of(Files.exists(file) ? Files.readString(file) : "(new)");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            try {
                Files.writeString(
                        context.workspace().root().resolve("notes.txt"),
                        params.text(),
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return ToolResult.success("appended", "appended");
        }
    }

    @Test
    void theSecondEditOfAFileIsPreviewedAfterTheFirstHasRun() {
        scheduler(ApprovalMode.DEFAULT, new Append())
                .runRound(List.of(call("1", "append", "one;"), call("2", "append", "two;")), new Cancellation());

        assertEquals(
                List.of(Optional.of("(new)"), Optional.of("one;")),
                asked.stream().map(ApprovalRequest::preview).toList());
    }

    @Test
    void aReadOnlyToolThatIsNotConcurrencySafeRunsAlone() {
        TestTools.Echo todo = new TestTools.Echo("todo", ToolKind.READ) {
            @Override
            public boolean concurrencySafe() {
                return false;
            }
        };

        scheduler(ApprovalMode.DEFAULT, todo)
                .runRound(List.of(call("1", "todo", "a"), call("2", "todo", "b")), new Cancellation());

        List<String> order = events.all().stream()
                .filter(event -> event instanceof AgentEvent.ToolCallFinished
                        || (event instanceof AgentEvent.ToolCallUpdated update
                                && update.status() == ToolCallStatus.EXECUTING))
                .map(event -> event instanceof AgentEvent.ToolCallFinished finished
                        ? "finished " + finished.call().id()
                        : "executing "
                                + ((AgentEvent.ToolCallUpdated) event).call().id())
                .toList();
        assertEquals(List.of("executing 1", "finished 1", "executing 2", "finished 2"), order);
        assertTrue(asked.isEmpty());
    }
}
