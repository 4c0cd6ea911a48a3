package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exec's output as the engine frames it. When the container's process limit leaves the wrapper one pid but not
 * a second, the wrapper's bash (named "dockhand") starts, fails to fork the command, prints bash's fork retries and
 * exits 254 (reproduced with {@code ulimit -u 1}): the command never ran, which the output must be able to tell.
 */
class DockerExecOutputTest {
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final DockerExec.Output output = new DockerExec.Output(stdout, stderr);

    private void frame(StreamType type, String text) {
        output.onNext(new Frame(type, text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theWrappersOwnForkFailuresAreHeldBackAndTellTheCommandNeverRan() {
        frame(StreamType.STDERR, "dockhand: fork: retry: Resource temporarily unavailable\n");
        frame(StreamType.STDERR, "dockhand: fork: Resource temporarily unavailable\n");

        assertEquals(
                List.of(true, "", ""), List.of(output.onlyWrapperForkFailures(), stdout.toString(), stderr.toString()));
    }

    @Test
    void theCommandsOwnForkFailuresAreItsOutput() {
        frame(StreamType.STDERR, "bash: fork: retry: Resource temporarily unavailable\n");

        assertEquals(
                List.of(false, "bash: fork: retry: Resource temporarily unavailable\n"),
                List.of(output.onlyWrapperForkFailures(), stderr.toString()));
    }

    @Test
    void heldLinesArePassedOnOnceTheCommandPrintsAnythingElse() {
        frame(StreamType.STDERR, "dockhand: fork: retry: Resource temporarily unavailable\n");
        frame(StreamType.STDOUT, "alive\n");

        assertEquals(
                List.of(false, "alive\n", "dockhand: fork: retry: Resource temporarily unavailable\n"),
                List.of(output.onlyWrapperForkFailures(), stdout.toString(), stderr.toString()));
    }
}
