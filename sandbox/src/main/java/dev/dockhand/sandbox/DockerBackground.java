package dev.dockhand.sandbox;

import com.github.dockerjava.api.DockerClient;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background command in the container: its exec, whose output is appended to its file as it arrives (the file is
 * closed when the exec's stream ends), and the container it runs in. When that container is replaced or removed, the
 * command went with it.
 */
final class DockerBackground implements BackgroundJobs.Control {
    private static final Logger log = LoggerFactory.getLogger(DockerBackground.class);
    private static final int KILLED = 137;
    private static final String REFUSED =
            "The sandbox container refused to start the command: its process limit is" + " full, or it stopped.";

    private final SandboxContainer container;
    private final String containerId;
    private final DockerExec exec;
    private final OutputStream file;

    private DockerBackground(SandboxContainer container, String containerId, DockerExec exec, OutputStream file) {
        this.container = container;
        this.containerId = containerId;
        this.exec = exec;
        this.file = file;
    }

    /**
     * Starts {@code command} in the container. When the container cannot even create the exec, it is replaced, and
     * the command is not started: the caller is told to start it again, in words that say the container was replaced.
     */
    static DockerBackground start(
            DockerClient docker, SandboxContainer container, String command, Path directory, Path outputFile)
            throws IOException {
        String id = container.ensureStarted();
        OutputStream file =
                BackgroundOutputFile.open(outputFile, BackgroundOutputFile.LIMIT, Clock.systemDefaultZone());
        DockerExec exec;
        try {
            exec = DockerExec.start(docker, id, command, directory, file, file);
        } catch (RuntimeException e) {
            closeQuietly(file);
            container.replace();
            throw new IOException(DockerSandbox.REPLACED + " The command was not started; start it again.", e);
        }
        exec.whenStreamEnds(() -> closeQuietly(file));
        return new DockerBackground(container, id, exec, file);
    }

    @Override
    public Optional<ExecResult> poll() {
        if (!containerId.equals(container.id())) {
            return Optional.of(new ExecResult(KILLED, ExecResult.Termination.CANCELLED));
        }
        if (!exec.streamEnded() || exec.isRunning()) {
            return Optional.empty();
        }
        OptionalInt exitCode = exec.exitCode();
        return Optional.of(
                exitCode.isPresent()
                        ? ExecResult.exited(exitCode.getAsInt())
                        : ExecResult.exited(126).withNotice(REFUSED));
    }

    @Override
    public ExecResult kill() {
        boolean clean = true;
        if (containerId.equals(container.id())) {
            clean = container.killMarked(containerId, exec.marker());
            exec.awaitOutput();
        }
        exec.close();
        closeQuietly(file);
        ExecResult killed = new ExecResult(KILLED, ExecResult.Termination.CANCELLED);
        return clean ? killed : killed.withNotice(DockerSandbox.REPLACED);
    }

    private static void closeQuietly(OutputStream file) {
        try {
            file.close();
        } catch (IOException e) {
            log.debug("closing a background command's output file failed", e);
        }
    }
}
