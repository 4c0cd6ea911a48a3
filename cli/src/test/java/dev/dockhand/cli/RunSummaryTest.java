package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.headless.RunSummary;
import dev.dockhand.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** --summary-file: a Markdown report for a CI job's summary page, on success and when a limit stops the run. */
public class RunSummaryTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(cli.workspace.resolve("notes.txt"), "remember\n");
    }

    @Test
    void theReportHoldsTheAnswerEachCallTheUsageAndTheExit() {
        String markdown = RunSummary.markdown(
                Json.read(
                        """
                {"type":"result","session_id":"s1","answer":"It says remember.","turns":2,
                 "tool_calls":[{"id":"c1","name":"read_file","arguments":{"path":"a|b.txt"},"status":"success",
                   "result":"…","duration_ms":3},
                  {"id":"c2","name":"run_shell_command","arguments":{"command":"make"},"status":"error",
                   "result":"…","duration_ms":1500}],
                 "usage":{"input_tokens":48711,"cached_input_tokens":47902,"cache_write_tokens":790,"output_tokens":147,
                   "reasoning_tokens":0,"estimated":false,"cost_usd":0.0195951},
                 "duration_ms":2140,"exit_code":0,"error":null}
                """));

        assertEquals(
                """
                ## Dockhand: answered

                It says remember.

                | # | tool | arguments | status | time |
                | --- | --- | --- | --- | --- |
                | 1 | `read_file` | {"path":"a\\|b.txt"} | success | 3 ms |
                | 2 | `run_shell_command` | {"command":"make"} | error | 1.5 s |

                **Tokens:** 48,711 in (47,902 from the cache), 147 out · **Cost:** $0.0196

                **Requests:** 2 · **Time:** 2.1 s · **Exit code:** 0 · **Session:** `s1`
                """,
                markdown);
    }

    @Test
    void aRunStoppedByALimitStillWritesItsReport() throws Exception {
        cli.model.enqueue(
                calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")),
                calls(toolCall("r2", "read_file", "{\"path\":\"notes.txt\"}")));

        int exit = cli.run("--max-tool-calls", "1", "--summary-file", "out/summary.md", "-p", "read twice");

        assertEquals(ExitCodes.TOOL_CALL_LIMIT, exit, cli.err.toString());
        List<String> lines = Files.readAllLines(cli.workspace.resolve("out/summary.md"));
        assertEquals(
                List.of("## Dockhand: stopped (tool_call_limit)", "| 1 | `read_file` | {\"path\":\"notes.txt\"} |"),
                List.of(
                        lines.get(0),
                        lines.stream()
                                .filter(line -> line.startsWith("| 1 "))
                                .findFirst()
                                .orElseThrow()
                                .substring(0, 42)));
    }

    @Test
    void anExistingStepSummaryIsAddedToNotReplaced() throws Exception {
        Path summary = Files.writeString(temp.resolve("step-summary.md"), "## Build\n\nGreen.\n\n");
        cli.model.enqueue(answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--summary-file", summary.toString(), "-p", "hi"));

        assertEquals(
                List.of("## Build", "", "Green.", "", "## Dockhand: answered", "", "Done."),
                Files.readAllLines(summary).subList(0, 7));
    }

    @Test
    void anAnsweredRunWritesItsReportWhateverTheOutputFormat() throws Exception {
        cli.model.enqueue(answer("Done."));

        assertEquals(
                ExitCodes.OK,
                cli.run(
                        "--output-format",
                        "stream-json",
                        "--summary-file",
                        temp.resolve("s.md").toString(),
                        "-p",
                        "hi"));

        assertEquals(
                List.of("## Dockhand: answered", "", "Done."),
                Files.readAllLines(temp.resolve("s.md")).subList(0, 3));
        assertEquals(
                "rw-r--r--",
                java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(temp.resolve("s.md"))));
    }
}
