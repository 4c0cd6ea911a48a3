package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end of a session against an engine that stops answering (it accepts connections and never replies, pings
 * included): a step of the close that passes its limit, here 200 ms, pings the engine, and when the ping goes
 * unanswered the session ends with one line naming the container left behind. An engine that is slow but answers its
 * pings is waited for. The engine is a stand-in on a local socket that answers what starting a container takes and
 * then stalls, or answers late. The preemptive time-out only turns a hang into a failure; nothing here waits for time
 * to pass.
 */
class StalledEngineCloseTest {
    private static final String CONTAINER = "c0ffee" + "0".repeat(58);

    @TempDir
    Path workspace;

    private StallingEngine engine;
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        workspace = workspace.toRealPath();
        engine = new StallingEngine(false);
    }

    @AfterEach
    void stop() throws IOException {
        engine.close();
    }

    private DockerSandbox sandbox(String transport) {
        DockerSandbox sandbox = DockerSandbox.connect(
                DockerSettings.DEFAULT,
                workspace,
                List.of(),
                Map.of("DOCKER_HOST", engine.address(), "DOCKHAND_SANDBOX_TRANSPORT", transport));
        sandbox.closeLimit(Duration.ofMillis(200));
        sandbox.onWarning(warnings::add);
        return sandbox;
    }

    @Test
    void aRemovalTheEngineNeverAnswersIsGivenUpOnWithALineNamingTheContainer() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            DockerSandbox sandbox = sandbox("mount");
            // Started, warmed up or not: the warm-up's exec is refused.
            sandbox.startAhead().handle((started, refused) -> null).join();

            sandbox.close();

            assertEquals(
                    List.of("the Docker engine at " + engine.address() + " did not answer within 200 ms as the session"
                            + " ended; the sandbox container c0ffee000000 is left there (docker rm -f"
                            + " c0ffee000000)."),
                    warnings);
            assertEquals(
                    List.of("DELETE", "GET"),
                    engine.stalled().stream()
                            .map(request -> request.split(" ")[0])
                            .toList());
        });
    }

    @Test
    void aRemovalThatOutlastsTheLimitOnAnEngineAnsweringItsPingsIsWaitedFor() throws IOException {
        engine.close();
        engine = new StallingEngine(true);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            DockerSandbox sandbox = sandbox("mount");
            sandbox.startAhead().handle((started, refused) -> null).join();

            sandbox.close();

            assertEquals(List.of(), warnings);
            assertEquals(List.of(), engine.stalled());
            assertEquals(
                    List.of("DELETE"),
                    engine.answeredLate().stream()
                            .map(request -> request.split(" ")[0])
                            .toList());
        });
    }

    @Test
    void aCopyBackTheEngineNeverAnswersIsGivenUpOnAndTheLineSaysWhatWasNotCopied() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            DockerSandbox sandbox = sandbox("sync");
            // The workspace's copy into the new container is the first call the engine leaves unanswered.
            sandbox.startAhead();
            engine.firstStall.await();

            sandbox.close();

            assertEquals(
                    List.of("the Docker engine at " + engine.address() + " did not answer within 200 ms as the session"
                            + " ended, so what changed in the sandbox since the last command was not copied back; the"
                            + " sandbox container c0ffee000000 is left there (docker rm -f c0ffee000000)."),
                    warnings);
            assertEquals("PUT", engine.stalled().get(0).split(" ")[0]);
        });
    }

    /**
     * An engine on a local socket, spoken to in plain HTTP: it creates and starts a container, refuses execs (so the
     * start's look at the memory counters finds nothing), and answers pings; every other request it leaves without an
     * answer, holding its connection open, and from then on it answers nothing, pings included. A slow one answers
     * such a request instead, but only once it has answered two pings after it, so the close's step outlasts its limit
     * at least once.
     */
    private static final class StallingEngine implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> connections = new CopyOnWriteArrayList<>();
        private final List<String> stalled = new CopyOnWriteArrayList<>();
        private final List<String> answeredLate = new CopyOnWriteArrayList<>();
        private final boolean slow;
        private volatile boolean dead;
        private final java.util.concurrent.Semaphore pingsAnswered = new java.util.concurrent.Semaphore(0);
        final CountDownLatch firstStall = new CountDownLatch(1);

        StallingEngine(boolean slow) throws IOException {
            this.slow = slow;
            Thread accepting = new Thread(this::accept, "stalling-engine");
            accepting.setDaemon(true);
            accepting.start();
        }

        String address() {
            return "tcp://127.0.0.1:" + server.getLocalPort();
        }

        /** The request lines left unanswered, in order. */
        List<String> stalled() {
            return stalled;
        }

        /** The request lines a slow engine answered after two pings, in order. */
        List<String> answeredLate() {
            return answeredLate;
        }

        private void accept() {
            try {
                while (true) {
                    Socket socket = server.accept();
                    connections.add(socket);
                    Thread serving = new Thread(() -> serve(socket), "stalling-engine-connection");
                    serving.setDaemon(true);
                    serving.start();
                }
            } catch (IOException closed) {
                // The test is over.
            }
        }

        private void serve(Socket socket) {
            try (socket) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                while (true) {
                    List<String> head = head(in);
                    if (head.isEmpty()) {
                        return;
                    }
                    String request = head.get(0);
                    String path = request.split(" ")[1];
                    if (!dead && request.startsWith("GET") && path.endsWith("/_ping")) {
                        answer(out, "200 OK", "OK");
                        pingsAnswered.release();
                    } else if (request.startsWith("POST") && path.contains("/containers/create")) {
                        body(in, head);
                        answer(out, "201 Created", "{\"Id\":\"" + CONTAINER + "\",\"Warnings\":[]}");
                    } else if (request.startsWith("POST") && path.contains("/containers/" + CONTAINER + "/start")) {
                        body(in, head);
                        answer(out, "204 No Content", null);
                    } else if (request.startsWith("POST") && path.contains("/exec")) {
                        body(in, head);
                        answer(out, "500 Internal Server Error", "{\"message\":\"no exec here\"}");
                    } else if (slow) {
                        body(in, head);
                        pingsAnswered.drainPermits();
                        pingsAnswered.acquire(2);
                        answeredLate.add(request);
                        answer(out, "204 No Content", null);
                    } else {
                        dead = true;
                        stalled.add(request);
                        firstStall.countDown();
                        // Never answered: the connection stays open until the test ends.
                        in.transferTo(OutputStream.nullOutputStream());
                        return;
                    }
                }
            } catch (IOException closed) {
                // The test is over, or the client gave up.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static List<String> head(InputStream in) throws IOException {
            List<String> lines = new java.util.ArrayList<>();
            while (true) {
                String line = line(in);
                if (line == null) {
                    return List.of();
                }
                if (line.isEmpty()) {
                    return lines;
                }
                lines.add(line);
            }
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int read;
            while ((read = in.read()) != -1 && read != '\n') {
                line.write(read);
            }
            if (read == -1 && line.size() == 0) {
                return null;
            }
            return line.toString(StandardCharsets.UTF_8).strip();
        }

        /** Reads and drops the request's body, by its length or its chunks. */
        private static void body(InputStream in, List<String> head) throws IOException {
            for (String header : head) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    in.readNBytes(Integer.parseInt(
                            header.substring(header.indexOf(':') + 1).strip()));
                    return;
                }
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    while (true) {
                        int size = Integer.parseInt(line(in).split(";")[0], 16);
                        in.readNBytes(size);
                        line(in);
                        if (size == 0) {
                            return;
                        }
                    }
                }
            }
        }

        private static void answer(OutputStream out, String status, String json) throws IOException {
            byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
            String head = "HTTP/1.1 " + status + "\r\n"
                    + (json == null ? "" : "Content-Type: application/json\r\n")
                    + "Content-Length: " + body.length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket connection : connections) {
                connection.close();
            }
        }
    }
}
