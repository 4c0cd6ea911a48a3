package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.session.Sandboxes;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the sandbox's last copy back, at the end of the session, left in the sandbox reaches the user: one line on
 * stderr each, and in stream-json a warning line before the result line; so does that of the sandbox {@code dockhand
 * mcp list} opens for the servers that run in it. Only a remote engine's sync transport has such notices, so a
 * stand-in around the sandbox returns one when it closes.
 */
class CloseNoticesTest extends CliTest {
    private static final String NOTICE = "copying back at the end of the session: Left as it is on the user's"
            + " machine, since it changed there too or was never synced, so the command's version stays only in the"
            + " sandbox: gen (the folder holds gen/run.log, which was not synced).";

    @BeforeEach
    void standIn() {
        Sandboxes.around = NoticeAtClose::new;
    }

    @AfterEach
    void restore() {
        Sandboxes.around = UnaryOperator.identity();
    }

    @Test
    void aNoticeOfTheLastCopyBackIsALineOnStderr() {
        cli.model.enqueue(answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("-p", "hi"));

        assertEquals(
                List.of(
                        "dockhand: --sandbox none: commands run directly on this machine, unconfined.",
                        "dockhand: " + NOTICE),
                cli.err.toString().lines().toList());
    }

    @Test
    void inStreamJsonItIsAlsoAWarningLineBeforeTheResult() {
        cli.model.enqueue(answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--output-format", "stream-json", "-p", "hi"));

        List<JsonNode> lines = cli.out.toString().lines().map(Json::read).toList();
        List<String> types = new ArrayList<>();
        lines.forEach(line -> types.add(line.get("type").asText()));
        assertEquals(List.of("init", "text", "text", "usage", "warning", "result"), types);
        assertEquals(
                Json.object().put("type", "warning").put("schema_version", 1).put("message", NOTICE), lines.get(4));
        assertEquals(
                List.of(
                        "dockhand: --sandbox none: commands run directly on this machine, unconfined.",
                        "dockhand: " + NOTICE),
                cli.err.toString().lines().toList());
    }

    @Test
    void aNoticeOfClosingTheSandboxOfMcpListIsALineOnStderr() throws Exception {
        cli.userSettings("{\"mcpServers\": {\"box\": {\"command\": \"true\", \"sandbox\": true}}}");

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "mcp", "list"));

        assertEquals(List.of("dockhand: " + NOTICE), cli.err.toString().lines().toList());
        assertEquals(
                "box  stdio (sandbox)  failed: did not start: it is set to run in the sandbox (\"sandbox\": true) and"
                        + " this session has no Docker sandbox (--sandbox none), so it was not started on this machine"
                        + " instead.\n",
                cli.out.toString());
    }

    /** The session's own sandbox, whose close also returns {@link #NOTICE}. */
    private static final class NoticeAtClose implements Sandbox {
        private final Sandbox sandbox;

        NoticeAtClose(Sandbox sandbox) {
            this.sandbox = sandbox;
        }

        @Override
        public String kind() {
            return sandbox.kind();
        }

        @Override
        public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
            return sandbox.exec(request, output, cancel);
        }

        @Override
        public BackgroundProcess start(String command, Path directory, Path outputFolder) throws IOException {
            return sandbox.start(command, directory, outputFolder);
        }

        @Override
        public List<BackgroundProcess> background() {
            return sandbox.background();
        }

        @Override
        public void close() {
            sandbox.close();
        }

        @Override
        public List<String> closeAndReport() {
            List<String> notices = new ArrayList<>(sandbox.closeAndReport());
            notices.add(NOTICE);
            return notices;
        }
    }
}
