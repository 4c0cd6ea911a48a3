package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.output.TruncatedOutput;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the scheduler does with output too long for the model: the whole text goes to a file Dockhand names in its own
 * folder, never a path made of the call id; when no file can be written the model still gets head and tail with a
 * note, the call's status line says so, and the session is warned once. Tools that page their own output are not cut.
 */
class SavedOutputTest {
    @TempDir
    Path temp;

    private Path workspace;
    private Path outputDir;
    private final EventRecorder events = new EventRecorder();

    @BeforeEach
    void folders() throws IOException {
        workspace = Files.createDirectories(temp.resolve("project"));
        // As the CLI lays it out: ~/.dockhand/tmp/<session>, three levels under temp.
        outputDir = temp.resolve("home/tmp/session");
    }

    /** Streams {@code text}'s number of lines through the call's own collector, as the shell tool does. */
    private static final TestTools.Base STREAMING = new TestTools.Base("stream", ToolKind.READ) {
        @Override
        public ToolResult execute(Params params, ToolContext context) {
            try (TruncatedOutput output = context.newOutput()) {
                int lines = Integer.parseInt(params.text());
                for (int i = 1; i <= lines; i++) {
                    output.appendLine("row " + i);
                }
                return ToolResult.success("Exit code: 0\nOutput:\n" + output.text(), "exit 0, " + lines + " lines");
            }
        }
    };

    /** Returns {@code text}'s number of lines whole, for the scheduler's generic cut. */
    private static final TestTools.Base RETURNING = new TestTools.Base("dump", ToolKind.READ) {
        @Override
        public ToolResult execute(Params params, ToolContext context) {
            StringBuilder text = new StringBuilder();
            for (int i = 1; i <= Integer.parseInt(params.text()); i++) {
                text.append("row ").append(i).append('\n');
            }
            return ToolResult.success(text.toString(), "dumped");
        }
    };

    /** Declares its output paged, as read_file does, and returns {@code text}'s number of lines. */
    private static final TestTools.Base PAGED = new TestTools.Base("page", ToolKind.READ) {
        @Override
        public boolean pagesItsOutput() {
            return true;
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            StringBuilder text = new StringBuilder();
            for (int i = 1; i <= Integer.parseInt(params.text()); i++) {
                text.append(i).append('\n');
            }
            return ToolResult.success(text.toString(), "paged");
        }
    };

    private CoreToolScheduler scheduler() {
        return new CoreToolScheduler(
                new ToolRegistry(List.of(STREAMING, RETURNING, PAGED)),
                new ToolEnvironment(
                        Workspace.of(workspace), TestEnvironments.NO_COMMANDS, OutputLimits.DEFAULT, outputDir),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                events);
    }

    private static ToolCall call(String id, String tool, int lines) {
        return new ToolCall(id, tool, "{\"text\":\"" + lines + "\"}");
    }

    private List<Path> everyFile() throws IOException {
        try (Stream<Path> walk = Files.walk(temp)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aCallIdThatIsAPathWritesNothingOutsideDockhandsFolder() throws Exception {
        List<CompletedCall> done = scheduler()
                .runRound(
                        List.of(call("../../../ESCAPED", "stream", 300_000), call("../../../DUMPED", "dump", 5_000)),
                        new Cancellation());

        assertEquals(
                List.of(ToolCallStatus.SUCCESS, ToolCallStatus.SUCCESS),
                done.stream().map(CompletedCall::status).toList());
        List<Path> files = everyFile();
        assertEquals(2, files.size(), files.toString());
        for (Path file : files) {
            assertEquals(outputDir, file.getParent());
        }
        assertEquals(
                300_000,
                Files.readAllLines(files.stream()
                                .filter(file ->
                                        done.get(0).result().llmContent().contains(file.toString()))
                                .findFirst()
                                .orElseThrow())
                        .size());
    }

    @Test
    void anOutputThatCannotBeSavedIsMarkedForTheModelTheStatusLineAndOnceForTheSession() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/tmp"), "a file where the folder should be");

        List<CompletedCall> done = scheduler()
                .runRound(List.of(call("s1", "stream", 5_000), call("s2", "dump", 5_000)), new Cancellation());

        String reason = "Not a directory on " + outputDir;
        for (CompletedCall completed : done) {
            String content = completed.result().llmContent();
            assertTrue(
                    content.contains("[... 4000 lines omitted. The rest of the output (5000 lines in all) could not"
                            + " be kept: " + reason + ". Only these first and last lines remain;"),
                    content);
            assertTrue(content.endsWith("row 5000"), content);
        }
        assertEquals(
                List.of(
                        "exit 0, 5000 lines · output cut, the rest not saved: " + reason,
                        "dumped · output cut, the rest not saved: " + reason),
                done.stream().map(completed -> completed.result().display()).toList());
        assertEquals(
                List.of(new AgentEvent.Warning("a tool's output was too long for the model and could not be saved in "
                        + outputDir + " (" + reason + "); the model got its first and last lines and a note that the"
                        + " rest is lost. Calls that lose output say so.")),
                events.ofType(AgentEvent.Warning.class));
    }

    @Test
    void aToolThatPagesItsOutputIsNeverCutInsideAPage() {
        List<CompletedCall> done = scheduler().runRound(List.of(call("p1", "page", 1_500)), new Cancellation());

        StringBuilder whole = new StringBuilder();
        for (int i = 1; i <= 1_500; i++) {
            whole.append(i).append('\n');
        }
        assertEquals(ToolResult.success(whole.toString(), "paged"), done.get(0).result());
    }
}
