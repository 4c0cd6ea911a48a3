package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ssh bridge with a stand-in {@code ssh} on the PATH (a script that notes its arguments and then echoes, fails or
 * says nothing), so that its arguments, its piping, its sentences and its clean-up are checked without an sshd; the
 * real ssh and sshd are in {@link SshEngineTest}.
 */
class SshBridgeTest {
    @TempDir
    Path bin;

    @Test
    void anAddressBecomesUserPortAndHostAfterTheEndOfOptions() {
        Path ssh = Path.of("/usr/bin/ssh");

        assertEquals(
                List.of(
                        "/usr/bin/ssh",
                        "-o",
                        "BatchMode=yes",
                        "-T",
                        "-l",
                        "ci",
                        "-p",
                        "2222",
                        "--",
                        "builder.example",
                        "docker",
                        "system",
                        "dial-stdio"),
                SshBridge.command(ssh, SshBridge.parse("ssh://ci@builder.example:2222"), true));
        assertEquals(
                List.of("/usr/bin/ssh", "-T", "--", "builder", "docker", "system", "dial-stdio"),
                SshBridge.command(ssh, SshBridge.parse("SSH://builder/"), false));
        assertEquals(new SshBridge.Target(null, "::1", 22), SshBridge.parse("ssh://[::1]:22"));
        assertEquals(
                new SshBridge.Target("me", "alias_from_ssh_config", -1),
                SshBridge.parse("ssh://me@alias_from_ssh_config"));
    }

    @Test
    void anAddressSshWouldReadAsAnOptionOrThatCarriesMoreThanAHostIsRefused() {
        assertEquals(
                "DOCKER_HOST=ssh://-oProxyCommand=calc has a host or user starting with '-', which ssh"
                        + " would read as an option; write it as ssh://[user@]host[:port] and put other ssh settings"
                        + " in ~/.ssh/config.",
                refusal("ssh://-oProxyCommand=calc"));
        assertEquals(
                "DOCKER_HOST=ssh://-oProxyCommand=x@builder has a host or user starting with '-', which ssh would"
                        + " read as an option; write it as ssh://[user@]host[:port] and put other ssh settings in"
                        + " ~/.ssh/config.",
                refusal("ssh://-oProxyCommand=x@builder"));
        assertEquals(
                "DOCKER_HOST=ssh://ci:hunter2@builder holds a password; use a key or your ssh agent instead; write"
                        + " it as ssh://[user@]host[:port] and put other ssh settings in ~/.ssh/config.",
                refusal("ssh://ci:hunter2@builder"));
        assertEquals(
                "DOCKER_HOST=ssh://builder/var/run/docker.sock names a path after the host, which is not supported;"
                        + " write it as ssh://[user@]host[:port] and put other ssh settings in ~/.ssh/config.",
                refusal("ssh://builder/var/run/docker.sock"));
        assertEquals(
                "DOCKER_HOST=ssh://builder:70000 has a port that is not a number from 1 to 65535; write it as"
                        + " ssh://[user@]host[:port] and put other ssh settings in ~/.ssh/config.",
                refusal("ssh://builder:70000"));
        assertEquals(
                "DOCKER_HOST=ssh://build er has a space or control character in its host or user; write it as"
                        + " ssh://[user@]host[:port] and put other ssh settings in ~/.ssh/config.",
                refusal("ssh://build er"));
    }

    private static String refusal(String address) {
        return assertThrows(IllegalArgumentException.class, () -> SshBridge.parse(address))
                .getMessage();
    }

    @Test
    void withoutAnSshOnThePathTheSentenceSaysSo() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> SshBridge.open("ssh://builder", Map.of("PATH", bin.toString()), false));

        assertEquals(
                "DOCKER_HOST=ssh://builder needs the OpenSSH client, and no ssh is on the PATH; install it, or run"
                        + " with --sandbox none to run commands unconfined.",
                refused.getMessage());
    }

    @Test
    void anSshInARelativePathEntryWhichWouldBeTheWorkspacesIsNeverRun() throws Exception {
        // Relative entries resolve against the working directory, the workspace in a real run: a cloned repository's
        // node_modules/.bin/ssh must not run on the host.
        Path planted = Path.of("target/relative-bin/ssh").toAbsolutePath();
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "#!/bin/sh\necho planted\n");
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwx------"));
        try {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class,
                    () -> SshBridge.open("ssh://builder", Map.of("PATH", "target/relative-bin::."), false));

            assertEquals(
                    "DOCKER_HOST=ssh://builder needs the OpenSSH client, and no ssh is on the PATH; install it, or run"
                            + " with --sandbox none to run commands unconfined.",
                    refused.getMessage());
        } finally {
            Files.delete(planted);
        }
    }

    @Test
    void eachConnectionIsPipedToAFreshSshWithTheArgumentsOfTheAddress() throws Exception {
        fakeSsh("printf '%s\\n' \"$@\" >> \"$0.args\"\nexec cat");
        SshBridge bridge = SshBridge.open("ssh://ci@builder:2222", env(), false);
        Path folder = bridge.folder();
        try {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));

            assertEquals("first", echoed(bridge, "first"));
            assertEquals("second", echoed(bridge, "second"));

            String arguments = "-o\nBatchMode=yes\n-T\n-l\nci\n-p\n2222\n--\nbuilder\ndocker\nsystem\ndial-stdio\n";
            assertEquals(arguments + arguments, Files.readString(bin.resolve("ssh.args")));
        } finally {
            bridge.close();
        }
        assertFalse(Files.exists(folder));
    }

    @Test
    void closeStopsEverySshAndRemovesTheSocketAndItsFolder() throws Exception {
        String marker = sleeper();
        fakeSsh("exec " + marker);
        SshBridge bridge = SshBridge.open("ssh://builder", env(), false);
        Path folder = bridge.folder();
        SocketChannel first = connect(bridge);
        SocketChannel second = connect(bridge);
        await("two ssh processes", () -> sshProcesses(marker).size() == 2);

        bridge.close();

        assertEquals(List.of(), sshProcesses(marker));
        assertFalse(Files.exists(folder));
        // docker-java's side of each connection is closed too.
        assertEquals(-1, first.read(ByteBuffer.allocate(1)));
        assertEquals(-1, second.read(ByteBuffer.allocate(1)));
        first.close();
        second.close();
    }

    @Test
    void anSshThatFailsIsReportedInItsOwnWordsWithTheCommandToTry() throws Exception {
        fakeSsh("echo 'debug noise' >&2\necho 'ci@builder: Permission denied (publickey).' >&2\nexit 255");
        SshBridge bridge = SshBridge.open("ssh://ci@builder:2222", env(), false);
        try {
            SandboxUnavailableException refused =
                    assertThrows(SandboxUnavailableException.class, () -> bridge.check(() -> echoed(bridge, "ping")));

            assertEquals(
                    "Docker does not answer at ssh://ci@builder:2222: ssh exited with status 255 saying"
                            + " \"ci@builder: Permission denied (publickey).\"; check that \"ssh -p 2222 -l ci builder"
                            + " docker version\" works without a prompt (the docker CLI must be installed there), or"
                            + " run with --sandbox none to run commands unconfined.",
                    refused.getMessage());
        } finally {
            bridge.close();
        }
    }

    @Test
    void anSshThatNeitherConnectsNorFailsIsStoppedAtTheLimit() throws Exception {
        String marker = sleeper();
        fakeSsh("exec " + marker);
        SshBridge bridge = SshBridge.open("ssh://builder", env(), false);
        bridge.limit(Duration.ofSeconds(1));
        try {
            SandboxUnavailableException refused =
                    assertThrows(SandboxUnavailableException.class, () -> bridge.check(() -> echoed(bridge, "ping")));

            assertEquals(
                    "Docker does not answer at ssh://builder: ssh did not connect within 1 s; check that \"ssh"
                            + " builder docker version\" works without a prompt (the docker CLI must be installed"
                            + " there), or run with --sandbox none to run commands unconfined.",
                    refused.getMessage());
            assertEquals(List.of(), sshProcesses(marker));
        } finally {
            bridge.close();
        }
    }

    private void fakeSsh(String body) throws IOException {
        Path ssh = bin.resolve("ssh");
        Files.writeString(ssh, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
    }

    private Map<String, String> env() {
        return Map.of("PATH", bin + ":/usr/bin:/bin");
    }

    private static SocketChannel connect(SshBridge bridge) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(Path.of(bridge.socket().getPath())));
        return channel;
    }

    /** Sends a line through the bridge and reads what comes back until the far side closes. */
    private static String echoed(SshBridge bridge, String text) {
        try (SocketChannel channel = connect(bridge)) {
            channel.write(ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.shutdownOutput();
            StringBuilder received = new StringBuilder();
            ByteBuffer buffer = ByteBuffer.allocate(1024);
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                received.append(StandardCharsets.UTF_8.decode(buffer));
                buffer.clear();
            }
            if (received.length() == 0) {
                throw new IllegalStateException("the connection closed without an answer");
            }
            return received.toString().strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code sleep} no other process on this machine runs, so that finding it finds this test's. */
    static String sleeper() {
        return "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
    }

    /** Waits for a condition that has no event to wait on (a process started), polling; fails after two minutes. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited two minutes for " + what);
            Thread.sleep(20);
        }
    }

    static List<Long> sshProcesses(String marker) {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(marker))
                .map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }
}
