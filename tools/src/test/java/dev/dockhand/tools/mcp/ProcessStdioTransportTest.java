package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class ProcessStdioTransportTest {
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"result\":{}}";

    @Test
    void aMessagePastTheLimitIsDroppedAsAProtocolErrorAndTheNextOneIsRead() throws Exception {
        String stdout = "x".repeat(500) + "\n" + PING + "\n";
        Streams streams = new Streams(stdout, "");
        List<String> stderr = new CopyOnWriteArrayList<>();
        List<Object> ids = new CopyOnWriteArrayList<>();
        ProcessStdioTransport transport = new ProcessStdioTransport(streams, JSON, "t", stderr::add, 100, 100);

        transport
                .connect(message -> message.doOnNext(m -> ids.add(((McpSchema.JSONRPCResponse) m).id())))
                .block();
        streams.stdoutClosed.get(10, TimeUnit.SECONDS);
        streams.stderrClosed.get(10, TimeUnit.SECONDS);

        assertEquals(List.of("7"), ids);
        assertEquals(
                List.of(
                        "[protocol error: a message on stdout was dropped: it ran past the 100 bytes a message may be]"),
                stderr);
    }

    @Test
    void aLongStderrLineIsCutAndTheNextLineKept() throws Exception {
        Streams streams = new Streams("", "e".repeat(30) + "\nnext\n");
        List<String> stderr = new CopyOnWriteArrayList<>();
        ProcessStdioTransport transport = new ProcessStdioTransport(streams, JSON, "t", stderr::add, 100, 10);

        transport.connect(message -> Mono.empty()).block();
        streams.stdoutClosed.get(10, TimeUnit.SECONDS);
        streams.stderrClosed.get(10, TimeUnit.SECONDS);

        assertEquals(List.of("eeeeeeeeee … [20 more bytes]", "next"), stderr);
    }

    /** A process that has already written its streams; each says when the transport has read it to the end. */
    private static final class Streams extends Process {
        final CompletableFuture<Void> stdoutClosed = new CompletableFuture<>();
        final CompletableFuture<Void> stderrClosed = new CompletableFuture<>();
        private final InputStream stdout;
        private final InputStream stderr;

        Streams(String stdout, String stderr) {
            this.stdout = closing(stdout, stdoutClosed);
            this.stderr = closing(stderr, stderrClosed);
        }

        private static InputStream closing(String text, CompletableFuture<Void> closed) {
            return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
                @Override
                public void close() {
                    closed.complete(null);
                }
            };
        }

        @Override
        public OutputStream getOutputStream() {
            return new ByteArrayOutputStream();
        }

        @Override
        public InputStream getInputStream() {
            return stdout;
        }

        @Override
        public InputStream getErrorStream() {
            return stderr;
        }

        @Override
        public int waitFor() {
            return 0;
        }

        @Override
        public int exitValue() {
            return 0;
        }

        @Override
        public void destroy() {}
    }
}
