package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session against an engine at {@code DOCKER_HOST=ssh://…}, through the private sshd of scripts/ssh-remote-setup.sh
 * and the system ssh: it gives what a local sandbox gives, leaves nothing behind, and an ssh that cannot get through
 * stops the run before the model is called, in ssh's own words and within a bounded time.
 */
@Tag("docker")
class SshEngineTest {
    /** What ssh runs on the far side, found in the command line of each ssh this JVM started. */
    private static final String DIAL_STDIO = "docker system dial-stdio";

    @TempDir
    Path workspace;

    @TempDir
    Path local;

    /** A folder put first on the PATH, whose ssh wraps the set-up's with one option more. */
    @TempDir
    Path bin;

    private final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeEach
    void realPaths() throws IOException {
        workspace = workspace.toRealPath();
        local = local.toRealPath();
    }

    @Test
    void aSessionOverSshEditsRunsAndReadsFilesAsTheLocalSandboxDoesAndLeavesNothingBehind() throws Exception {
        DockerSandbox overSsh = DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, RemoteSsh.env());
        Path socketFolder = overSsh.sshBridge().orElseThrow().folder();
        List<String> remote;
        String container;
        try {
            remote = session(overSsh, workspace);
            container = overSsh.containerId();
            assertEquals(200, containerStatus(container));
            assertFalse(dialStdioProcesses().isEmpty());
        } finally {
            overSsh.close();
        }

        assertEquals(
                List.of(
                        "exit 0: [2]",
                        "notes.txt: two|three|",
                        "out/result.txt: hi|",
                        "src/app.py executable: true",
                        "exit 0: [four, 0, gone]",
                        "out/result.txt still: true"),
                remote);
        DockerSandbox mounted = DockerAvailable.sandbox(DockerSettings.DEFAULT, local, Map.of());
        try {
            assertEquals(remote, session(mounted, local));
        } finally {
            mounted.close();
        }
        assertEquals(List.of(), dialStdioProcesses());
        assertFalse(Files.exists(socketFolder));
        assertEquals(404, containerStatus(container));
    }

    /** The same edits, commands and reads, on whichever sandbox; what each step gave, in order. */
    private List<String> session(DockerSandbox sandbox, Path root) throws IOException {
        List<String> transcript = new ArrayList<>();
        write(root, "notes.txt", "one\n");
        write(root, "src/app.py", "print('hi')\n");
        transcript.add(run(
                sandbox,
                root,
                "sed -i s/one/two/ notes.txt && echo three >> notes.txt && mkdir -p out && python3 src/app.py >"
                        + " out/result.txt && chmod +x src/app.py && wc -l < notes.txt"));
        transcript.add("notes.txt: " + read(root, "notes.txt"));
        transcript.add("out/result.txt: " + read(root, "out/result.txt"));
        transcript.add("src/app.py executable: " + Files.isExecutable(root.resolve("src/app.py")));
        // As the file tools do between commands: an edit and a deletion on the host.
        write(root, "notes.txt", "four\n");
        Files.delete(root.resolve("src/app.py"));
        transcript.add(run(sandbox, root, "cat notes.txt; ls src | wc -l; test -e src/app.py || echo gone; rm -r src"));
        transcript.add("out/result.txt still: " + Files.exists(root.resolve("out/result.txt")));
        assertFalse(Files.exists(root.resolve("src")));
        return transcript;
    }

    private String run(DockerSandbox sandbox, Path root, String command) throws IOException {
        lines.clear();
        ExecResult result =
                sandbox.exec(new ExecRequest(command, root, Duration.ofSeconds(60)), lines::add, new Cancellation());
        assertEquals(ExecResult.Termination.EXITED, result.termination());
        return "exit " + result.exitCode() + ": " + lines;
    }

    private static void write(Path root, String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static String read(Path root, String path) throws IOException {
        return Files.readString(root.resolve(path)).replace('\n', '|');
    }

    /** The engine's HTTP status for the container, asked through a bridge of its own. */
    private static int containerStatus(String id) throws IOException {
        try (SshBridge bridge = SshBridge.open(RemoteSsh.host(), RemoteSsh.env(), false);
                DockerHttpClient http = new ZerodepDockerHttpClient.Builder()
                        .dockerHost(bridge.socket())
                        .build();
                DockerHttpClient.Response response = http.execute(DockerHttpClient.Request.builder()
                        .method(DockerHttpClient.Request.Method.GET)
                        .path("/containers/" + id + "/json")
                        .build())) {
            return response.getStatusCode();
        }
    }

    @Test
    void anUnknownHostKeyStopsTheRunWithSshsOwnLine() throws Exception {
        wrapSsh("-o UserKnownHostsFile=/dev/null");

        assertEquals(
                refusal(RemoteSsh.host(), "ssh exited with status 255 saying \"Host key verification failed.\""),
                preflightRefusal(RemoteSsh.env(RemoteSsh.host(), bin)));
    }

    @Test
    void aUserTheServerRefusesStopsTheRunWithSshsOwnLine() throws Exception {
        SshBridge.Target target = SshBridge.parse(RemoteSsh.host());
        String nobody = "ssh://nobody@" + target.host() + ":" + target.port();

        assertEquals(
                refusal(
                        nobody,
                        "ssh exited with status 255 saying \"nobody@127.0.0.1: Permission denied (publickey).\""),
                preflightRefusal(RemoteSsh.env(nobody, RemoteSsh.dir().resolve("bin"))));
    }

    @Test
    void aHostWithoutDockerStopsTheRunWithWhatItsShellSaid() throws Exception {
        wrapSsh("-o IdentityFile=" + RemoteSsh.dir().resolve("no-docker_key"));

        assertEquals(
                refusal(
                        RemoteSsh.host(),
                        "ssh exited with status 127 saying \"env: 'docker': No such file or directory\""),
                preflightRefusal(RemoteSsh.env(RemoteSsh.host(), bin)));
    }

    @Test
    void aServerThatNeverAnswersStopsTheRunAtTheLimit() throws Exception {
        // Accepts the connection (the backlog does) and never sends ssh's banner: ssh alone would wait for ever.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String address = "ssh://127.0.0.1:" + silent.getLocalPort();

            assertEquals(
                    refusal(address, "ssh did not connect within 1 s"),
                    preflightRefusal(RemoteSsh.env(address, RemoteSsh.dir().resolve("bin")), Duration.ofSeconds(1)));
        }
    }

    private void wrapSsh(String option) throws IOException {
        Path ssh = bin.resolve("ssh");
        Files.writeString(ssh, "#!/bin/sh\nexec " + RemoteSsh.dir().resolve("bin/ssh") + " " + option + " \"$@\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
    }

    private static String refusal(String address, String what) {
        SshBridge.Target target = SshBridge.parse(address);
        return "Docker does not answer at " + address + ": " + what + "; check that \"" + target.tryCommand()
                + "\" works without a prompt (the docker CLI must be installed there), or run with --sandbox none to"
                + " run commands unconfined.";
    }

    /** The sentence preflight stops with; afterwards no ssh, socket or folder of it is left. */
    private String preflightRefusal(Map<String, String> env) throws Exception {
        return preflightRefusal(env, SshBridge.CONNECT_LIMIT);
    }

    private String preflightRefusal(Map<String, String> env, Duration limit) throws Exception {
        DockerSandbox sandbox = DockerSandbox.connect(DockerSettings.DEFAULT, workspace, List.of(), env);
        SshBridge bridge = sandbox.sshBridge().orElseThrow();
        bridge.limit(limit);
        SandboxUnavailableException refused;
        try {
            refused = assertThrows(SandboxUnavailableException.class, sandbox::preflight);
        } finally {
            sandbox.close();
        }
        assertEquals(List.of(), dialStdioProcesses());
        assertFalse(Files.exists(bridge.folder()));
        return refused.getMessage();
    }

    private static List<Long> dialStdioProcesses() {
        return SshBridgeTest.sshProcesses(DIAL_STDIO);
    }
}
