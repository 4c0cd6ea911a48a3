package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.sandbox.LocalSandbox;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunShellCommandToolTest {
    @TempDir
    Path workspace;

    private final RunShellCommandTool tool = new RunShellCommandTool();
    private final LocalSandbox sandbox = new LocalSandbox(Map.of("PATH", System.getenv("PATH")));
    private final List<String> live = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        sandbox.close();
        // The session's tool-output folder of TestEnvironments lies beside the workspace, outside the @TempDir.
        Path background = outputDir().resolve(RunShellCommandTool.BACKGROUND_FOLDER);
        if (Files.isDirectory(background)) {
            try (Stream<Path> files = Files.list(background)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(background);
        }
        try (Stream<Path> left = Files.list(outputDir())) {
            if (left.findAny().isEmpty()) {
                Files.delete(outputDir());
            }
        } catch (NoSuchFileException none) {
            // No call of this test saved output.
        }
    }

    private Path outputDir() {
        return TestEnvironments.context(workspace, sandbox).outputDir();
    }

    private ToolResult run(String command, Long timeoutMs, String directory) {
        return tool.execute(
                new RunShellCommandTool.Params(command, null, timeoutMs, directory),
                TestEnvironments.context(workspace, sandbox, live::add, new Cancellation()));
    }

    @Test
    void reportsExitCodeAndOutput() {
        assertEquals(
                ToolResult.success("Exit code: 0\nOutput:\nhello", "exit 0, 1 lines"), run("echo hello", null, null));
        assertEquals(List.of("hello"), live);
    }

    @Test
    void aFailingCommandIsAnErrorWithItsExitCode() {
        assertEquals(
                new ToolResult(
                        "Exit code: 2\nOutput:\noops", "exit 2, 1 lines", Optional.of(ToolErrorType.EXECUTION_FAILED)),
                run("echo oops >&2; exit 2", null, null));
    }

    @Test
    void runsInASubFolder() throws Exception {
        Files.createDirectories(workspace.resolve("mod"));

        assertEquals(
                "Exit code: 0\nOutput:\nmod",
                run("basename \"$PWD\"", null, "mod").llmContent());
    }

    @Test
    void refusesAFolderOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                run("ls", null, "..").error().get());
    }

    // codex tools.rs: "shell_timeout_includes_timeout_prefix_and_metadata"
    @Test
    void saysWhenTheTimeOutKilledIt() {
        ToolResult result = run("echo before; sleep 30", 300L, null);

        assertEquals(
                new ToolResult(
                        "Killed: the command ran longer than its time-out of 300 ms. Run long jobs with a"
                                + " larger timeout_ms, or servers with run_in_background.\nOutput:\nbefore",
                        "timed out after 0 s",
                        Optional.of(ToolErrorType.EXECUTION_FAILED)),
                result);
    }

    // codex tools.rs: "shell_sandbox_denied_truncates_error_output" (the cut output keeps its status and a marker)
    @Test
    void theExitCodeStaysVisibleWhenTheOutputIsTruncated() {
        ToolResult result = run("seq 1 5000; exit 7", null, null);

        assertTrue(result.llmContent().startsWith("Exit code: 7\nOutput:\n1\n2\n"), result.llmContent());
        assertTrue(
                result.llmContent().contains("lines omitted. The whole output (5000 lines) is in "),
                result.llmContent());
        assertTrue(result.llmContent().endsWith("\n5000"), result.llmContent());
    }

    @Test
    void aGigabyteOfOutputNeedsOnlyAFewMegabytesOfHeap() throws Exception {
        long gigabyte = 1L << 30;
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HugeOutputMain.class.getName(),
                        workspace.toString(),
                        Long.toString(gigabyte))
                .redirectErrorStream(true)
                .start();
        String output = new String(child.getInputStream().readAllBytes()).strip();

        assertEquals(0, child.waitFor(), output);
        String[] fields =
                output.lines().reduce((first, second) -> second).orElse("").split(" ", 3);
        long lines = (gigabyte + 999) / 1000;
        assertEquals("exit 0, " + lines + " lines", fields[2], output);
        assertTrue(Integer.parseInt(fields[0]) <= 32_000, "the model's text is " + fields[0] + " chars");
        long peakHeap = Long.parseLong(fields[1]);
        assertTrue(peakHeap < 64L * 1024 * 1024, "peak heap " + peakHeap);
        Path saved = workspace
                .resolveSibling(workspace.getFileName() + "-output")
                .resolve(dev.dockhand.core.output.OutputFilesNames.first("call_test"));
        // The file keeps the whole lines (1,000 characters and an end) that fit its limit, then says it stops.
        String stop = "[Dockhand saved no more of this output: it passed 64 MB here. Its last lines are in the tool's"
                + " result.]\n";
        long kept = dev.dockhand.core.output.TruncatedOutput.MAX_SAVED_BYTES / 1001 * 1001;
        assertEquals(kept + stop.length(), Files.size(saved));
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(saved.toFile(), "r")) {
            byte[] end = new byte[stop.length()];
            file.seek(kept);
            file.readFully(end);
            assertEquals(stop, new String(end, java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.delete(saved);
    }

    @Test
    void aNoticeFromTheSandboxLeadsTheResultAndFollowsTheOutcome() {
        String notice = "The sandbox container stopped answering and was replaced with a fresh one.";
        Sandbox replacing = new Sandbox() {
            @Override
            public String kind() {
                return "docker";
            }

            @Override
            public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) {
                output.line("alive");
                return ExecResult.exited(0).withNotice(notice);
            }

            @Override
            public BackgroundProcess start(String command, Path directory, Path outputFolder) {
                throw new AssertionError("not in the background");
            }

            @Override
            public List<BackgroundProcess> background() {
                return List.of();
            }

            @Override
            public void close() {}
        };

        ToolResult result = tool.execute(
                new RunShellCommandTool.Params("echo alive", null, null, null),
                TestEnvironments.context(workspace, replacing));

        assertEquals(
                ToolResult.success(notice + "\nExit code: 0\nOutput:\nalive", "exit 0, 1 lines\n" + notice), result);
    }

    @Test
    void aBackgroundCommandReturnsAtOnceNamingItsIdAndTheFileItsOutputGoesTo() throws Exception {
        ToolResult result = tool.execute(
                new RunShellCommandTool.Params("echo serving; sleep 1000", null, null, null, true),
                TestEnvironments.context(workspace, sandbox, live::add, new Cancellation()));

        Path file = outputDir().resolve("background").resolve("bg-1.txt");
        assertEquals(
                ToolResult.success(
                        "Started in the background as bg-1. Its output goes to " + file + "; read it with read_file."
                                + " Stop it with kill_background; it is killed when the session ends.",
                        "started bg-1 in the background"),
                result);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(file).equals("serving\n")) {
            assertTrue(System.nanoTime() < deadline, "the output never reached " + file);
            Thread.sleep(20);
        }
        assertEquals(Optional.empty(), sandbox.background().get(0).result());
        assertEquals(List.of(), live, "a background command's output goes to its file, not to the live display");
    }

    @Test
    void theSummaryOfABackgroundCommandSaysSo() {
        assertEquals(
                "npm start  (in the background)",
                tool.summarize(new RunShellCommandTool.Params("npm start", null, null, null, true)));
    }

    @Test
    void rejectsAnEmptyCommand() {
        assertEquals(
                Optional.of("command is empty."),
                tool.validate(new RunShellCommandTool.Params("  ", null, null, null)));
    }
}
