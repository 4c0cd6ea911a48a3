package dev.dockhand.sandbox;

import dev.dockhand.core.HostPrograms;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reaches a Docker engine at {@code DOCKER_HOST=ssh://[user@]host[:port]} the way the docker CLI does: each
 * connection docker-java opens is one run of the system {@code ssh} with the remote command {@code docker system
 * dial-stdio}, whose standard input and output are the engine's socket on the far side. docker-java has no SSH
 * transport, so it is given a Unix-domain socket in a private folder (0700) of this machine instead, and this class
 * pipes each connection made there to a fresh ssh. Running the user's own ssh means their {@code ~/.ssh/config},
 * agent and {@code known_hosts} apply exactly as for {@code ssh} at their prompt (a Java SSH library would read them
 * its own way, or not at all); the only options given on the command line are {@code -T}, the user and port of the
 * URL, and {@code BatchMode=yes} whenever ssh must not ask (no terminal, or after the first connection, when a
 * prompt would fight the session for the terminal). An ssh that fails leaves its last line of error for {@link
 * #check}, so the user reads what ssh said; {@link #close} stops every ssh and removes the socket and its folder.
 */
final class SshBridge implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SshBridge.class);

    /** What runs on the far side: the docker CLI, connecting its standard input and output to the engine. */
    static final List<String> REMOTE_COMMAND = List.of("docker", "system", "dial-stdio");

    /** How long the first request may take without a terminal (with one, the user may be answering ssh). */
    static final Duration CONNECT_LIMIT = Duration.ofSeconds(30);

    static final Duration CONNECT_LIMIT_AT_A_TERMINAL = Duration.ofMinutes(2);

    private final Target target;
    private final String dockerHost;
    private final Path ssh;
    private final Map<String, String> environment;
    private final boolean terminal;
    private final Path folder;
    private final Path socket;
    private final ServerSocketChannel server;
    private final List<Connection> connections = new ArrayList<>();
    private final AtomicInteger started = new AtomicInteger();
    private Duration limit;
    private boolean closed;
    /** The last ssh that ended with an error, and what it said; null while none has. */
    private String lastFailure;

    /** The parts of an {@code ssh://} address that become ssh's arguments; {@code port} is -1 when none is given. */
    record Target(String user, String host, int port) {
        /** The command a user can try by hand to see what goes wrong, in the same form as Dockhand runs it. */
        String tryCommand() {
            return "ssh" + (port < 0 ? "" : " -p " + port) + (user == null ? "" : " -l " + user) + " " + host
                    + " docker version";
        }
    }

    private SshBridge(
            Target target,
            String dockerHost,
            Path ssh,
            Map<String, String> environment,
            boolean terminal,
            Path folder,
            ServerSocketChannel server) {
        this.target = target;
        this.dockerHost = dockerHost;
        this.ssh = ssh;
        this.environment = environment;
        this.terminal = terminal;
        this.folder = folder;
        this.socket = folder.resolve("engine.sock");
        this.server = server;
        this.limit = terminal ? CONNECT_LIMIT_AT_A_TERMINAL : CONNECT_LIMIT;
    }

    /**
     * Opens the local socket for the engine at {@code dockerHost}; no ssh runs until docker-java connects to it.
     * {@code environment} is the one ssh runs with (its {@code PATH} says which ssh); {@code terminal} whether ssh
     * may ask the user something at the first connection.
     *
     * @throws IllegalArgumentException with a sentence for the user when the address or the ssh client is unusable
     */
    static SshBridge open(String dockerHost, Map<String, String> environment, boolean terminal) {
        Target target = parse(dockerHost);
        Path ssh = findSsh(environment)
                .orElseThrow(() -> new IllegalArgumentException("DOCKER_HOST=" + dockerHost
                        + " needs the OpenSSH client, and no ssh is on the PATH; install it, or run with --sandbox"
                        + " none to run commands unconfined."));
        Path folder = null;
        try {
            folder = Files.createTempDirectory(
                    "dockhand-ssh-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            SshBridge bridge =
                    new SshBridge(target, dockerHost, ssh, Map.copyOf(environment), terminal, folder, server);
            server.bind(UnixDomainSocketAddress.of(bridge.socket));
            // Left behind only if the JVM ends without close (killed); registered folder first, so it goes last.
            folder.toFile().deleteOnExit();
            bridge.socket.toFile().deleteOnExit();
            Thread accept = new Thread(bridge::acceptAll, "dockhand-ssh-accept");
            accept.setDaemon(true);
            accept.start();
            return bridge;
        } catch (IOException e) {
            deleteQuietly(folder);
            throw new IllegalArgumentException(
                    "DOCKER_HOST=" + dockerHost + " needs a local socket for ssh, which could not be made ("
                            + DockerSandbox.reason(e) + ").",
                    e);
        }
    }

    /**
     * Reads {@code ssh://[user@]host[:port]} as the docker CLI does: no password, path, query or fragment. A host
     * or user starting with {@code -} is refused, since ssh would read it as an option (and ssh is also given
     * {@code --} before the host).
     *
     * @throws IllegalArgumentException with a sentence for the user when it is not such an address
     */
    static Target parse(String dockerHost) {
        String address = dockerHost.strip();
        if (!address.regionMatches(true, 0, "ssh://", 0, 6)) {
            throw new IllegalArgumentException("DOCKER_HOST=" + dockerHost + " is not an ssh:// address.");
        }
        String rest = address.substring(6);
        if (rest.contains("?") || rest.contains("#")) {
            throw refused(dockerHost, "has a query or fragment, which ssh:// addresses do not take");
        }
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            if (slash != rest.length() - 1) {
                throw refused(dockerHost, "names a path after the host, which is not supported");
            }
            rest = rest.substring(0, slash);
        }
        String user = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            user = rest.substring(0, at);
            rest = rest.substring(at + 1);
            if (user.contains(":")) {
                throw refused(dockerHost, "holds a password; use a key or your ssh agent instead");
            }
            if (user.isEmpty()) {
                throw refused(dockerHost, "has an empty user name");
            }
        }
        String host = rest;
        int port = -1;
        int colon = rest.lastIndexOf(':');
        if (colon >= 0 && (!rest.startsWith("[") || colon > rest.indexOf(']'))) {
            host = rest.substring(0, colon);
            port = port(dockerHost, rest.substring(colon + 1));
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty()) {
            throw refused(dockerHost, "names no host");
        }
        if (host.startsWith("-") || (user != null && user.startsWith("-"))) {
            throw refused(dockerHost, "has a host or user starting with '-', which ssh would read as an option");
        }
        if (!printable(host) || (user != null && !printable(user))) {
            throw refused(dockerHost, "has a space or control character in its host or user");
        }
        return new Target(user, host, port);
    }

    private static int port(String dockerHost, String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw refused(dockerHost, "has a port that is not a number from 1 to 65535");
    }

    private static boolean printable(String text) {
        return text.chars().allMatch(c -> c > ' ' && c != 0x7f);
    }

    private static IllegalArgumentException refused(String dockerHost, String why) {
        return new IllegalArgumentException("DOCKER_HOST=" + dockerHost + " " + why + "; write it as"
                + " ssh://[user@]host[:port] and put other ssh settings in ~/.ssh/config.");
    }

    /** The {@code ssh} on {@code environment}'s PATH, the one the user's shell would run. */
    static Optional<Path> findSsh(Map<String, String> environment) {
        // Only absolute folders: a relative entry (".", "node_modules/.bin") would find an ssh the workspace ships.
        return HostPrograms.find("ssh", environment.get("PATH"));
    }

    /** ssh's command line for one connection; {@code batch} when ssh must fail rather than ask the user. */
    static List<String> command(Path ssh, Target target, boolean batch) {
        List<String> command = new ArrayList<>();
        command.add(ssh.toString());
        if (batch) {
            command.add("-o");
            command.add("BatchMode=yes");
        }
        command.add("-T");
        if (target.user() != null) {
            command.add("-l");
            command.add(target.user());
        }
        if (target.port() >= 0) {
            command.add("-p");
            command.add(Integer.toString(target.port()));
        }
        command.add("--");
        command.add(target.host());
        command.addAll(REMOTE_COMMAND);
        return command;
    }

    /** The address docker-java connects to. */
    URI socket() {
        return URI.create("unix://" + socket);
    }

    /** The private folder holding the socket; for tests. */
    Path folder() {
        return folder;
    }

    /** Sets how long {@link #check} waits; for tests. */
    void limit(Duration limit) {
        this.limit = limit;
    }

    /**
     * Runs {@code ping}, the first request to the engine, within the connect limit; when it fails or takes longer,
     * throws a sentence saying what ssh said and how to try the same by hand.
     */
    void check(Runnable ping) throws SandboxUnavailableException {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        Thread pinger = new Thread(
                () -> {
                    try {
                        ping.run();
                        answered.complete(null);
                    } catch (RuntimeException e) {
                        answered.completeExceptionally(e);
                    }
                },
                "dockhand-ssh-check");
        pinger.setDaemon(true);
        pinger.start();
        try {
            answered.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // No further connection is made: the run stops here, and its sandbox is closed.
            close();
            String said = lastFailure();
            throw new SandboxUnavailableException(
                    unanswered("ssh did not connect within " + limit.toSeconds() + " s"
                            + (said == null ? "" : " (" + said + ")")),
                    e);
        } catch (ExecutionException e) {
            String said = lastFailure();
            throw new SandboxUnavailableException(
                    unanswered(said != null ? said : "the engine did not answer (" + DockerSandbox.reason(e) + ")"),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new SandboxUnavailableException("Interrupted while connecting to " + dockerHost + ".", e);
        }
    }

    private String unanswered(String what) {
        return "Docker does not answer at " + dockerHost + ": " + what + "; check that \"" + target.tryCommand()
                + "\" works without a prompt (the docker CLI must be installed there), or run with --sandbox none to"
                + " run commands unconfined.";
    }

    private synchronized String lastFailure() {
        return lastFailure;
    }

    private void acceptAll() {
        while (true) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (IOException e) {
                // Closed by close(); any other failure also ends the bridge, and docker-java's next connect says so.
                if (!isClosed()) {
                    log.warn("the ssh bridge stopped accepting connections", e);
                }
                return;
            }
            connect(client);
        }
    }

    private void connect(SocketChannel client) {
        int number = started.incrementAndGet();
        List<String> command = command(ssh, target, !terminal || number > 1);
        Process process;
        synchronized (this) {
            if (closed) {
                closeQuietly(client);
                return;
            }
            try {
                ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
                builder.environment().clear();
                builder.environment().putAll(environment);
                process = builder.start();
            } catch (IOException e) {
                lastFailure = "ssh could not be started (" + DockerSandbox.reason(e) + ")";
                closeQuietly(client);
                return;
            }
            connections.add(new Connection(number, client, process));
        }
        log.debug("ssh connection {} to {}: {}", number, dockerHost, command);
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private synchronized void ended(Connection connection, int exitCode, String lastLine) {
        connections.remove(connection);
        if (exitCode != 0 && !closed) {
            lastFailure = "ssh exited with status " + exitCode
                    + (lastLine == null ? " and said nothing" : " saying \"" + lastLine + "\"");
            log.warn("ssh connection {} to {} ended: {}", connection.number, dockerHost, lastFailure);
        }
    }

    /** Stops every ssh this bridge started and removes the socket and its folder; no connection is made after it. */
    @Override
    public void close() {
        List<Connection> open;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open = new ArrayList<>(connections);
        }
        closeQuietly(server);
        open.forEach(Connection::stop);
        open.forEach(Connection::awaitStopped);
        deleteQuietly(socket);
        deleteQuietly(folder);
    }

    private static void deleteQuietly(Path path) {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            log.debug("could not remove {}", path, e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            log.debug("closing failed", e);
        }
    }

    /**
     * One connection of docker-java and the ssh that carries it: bytes from docker-java go to ssh's standard input
     * and ssh's standard output comes back, each way on a thread of its own (channel reads and writes, not stream
     * wrappers of the channel, which would share one lock between the two directions); ssh's errors are kept.
     */
    private final class Connection {
        private final int number;
        private final SocketChannel client;
        private final Process process;
        private final Thread up;
        private final Thread down;
        private final Thread errors;
        private volatile String lastLine;

        Connection(int number, SocketChannel client, Process process) {
            this.number = number;
            this.client = client;
            this.process = process;
            this.errors = daemon("dockhand-ssh-errors-" + number, this::readErrors);
            this.up = daemon("dockhand-ssh-up-" + number, this::toSsh);
            this.down = daemon("dockhand-ssh-down-" + number, this::fromSsh);
        }

        private Thread daemon(String name, Runnable body) {
            Thread thread = new Thread(body, name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        /** docker-java to ssh; at its end (docker-java closed, or ssh is gone) ssh's input is closed. */
        private void toSsh() {
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            try (OutputStream in = process.getOutputStream()) {
                while (client.read(buffer) >= 0) {
                    in.write(buffer.array(), 0, buffer.position());
                    in.flush();
                    buffer.clear();
                }
            } catch (IOException e) {
                log.debug("ssh connection {}: docker-java to ssh ended", number, e);
            }
        }

        /**
         * ssh to docker-java; at its end ssh's exit and last error line are noted before docker-java's side is
         * closed, so that a request failing for it finds ssh's words in place.
         */
        private void fromSsh() {
            byte[] bytes = new byte[64 * 1024];
            try (InputStream out = process.getInputStream()) {
                int read;
                while ((read = out.read(bytes)) >= 0) {
                    ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, read);
                    while (buffer.hasRemaining()) {
                        client.write(buffer);
                    }
                }
            } catch (IOException e) {
                log.debug("ssh connection {}: ssh to docker-java ended", number, e);
                process.destroy();
            }
            int exitCode = awaitExit();
            ended(this, exitCode, lastLine);
            closeQuietly(client);
        }

        private int awaitExit() {
            try {
                int exitCode = process.waitFor();
                errors.join();
                return exitCode;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }

        private void readErrors() {
            try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (!line.isBlank()) {
                        lastLine = line.strip();
                        log.debug("ssh connection {}: {}", number, lastLine);
                    }
                }
            } catch (IOException e) {
                log.debug("ssh connection {}: reading its errors failed", number, e);
            }
        }

        void stop() {
            process.destroy();
            closeQuietly(client);
        }

        void awaitStopped() {
            try {
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(2, TimeUnit.SECONDS);
                }
                down.join(TimeUnit.SECONDS.toMillis(2));
                up.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
