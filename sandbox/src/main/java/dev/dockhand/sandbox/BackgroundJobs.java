package dev.dockhand.sandbox;

import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One sandbox's background commands, whichever sandbox runs them: names each {@code bg-N} from a counter, creates its
 * output file {@code bg-N.txt}, keeps them in start order, remembers how each ended, and kills those still running
 * when the sandbox closes. How a command is started, checked and killed is the sandbox's {@link Launcher}.
 */
final class BackgroundJobs {

    /** How a sandbox starts one background command, its output appended to a file that exists and is empty. */
    @FunctionalInterface
    interface Launcher {
        Control launch(Path outputFile) throws IOException;
    }

    /** A started background command, as its sandbox checks and kills it. */
    interface Control {
        /** How it ended, or empty while it runs. */
        Optional<ExecResult> poll();

        /** Kills every process it started; returns how it ended ({@link ExecResult.Termination#CANCELLED}). */
        ExecResult kill();
    }

    private final AtomicInteger started = new AtomicInteger();
    private final List<Job> jobs = new CopyOnWriteArrayList<>();

    BackgroundProcess start(String command, Path outputFolder, Launcher launcher) throws IOException {
        String id = "bg-" + started.incrementAndGet();
        PrivateFiles.createFolders(outputFolder);
        Path outputFile = outputFolder.resolve(id + ".txt");
        // Empty, even if an earlier run of this session's folder left one: the file holds this command's output.
        PrivateFiles.createEmpty(outputFile);
        Control control;
        try {
            control = launcher.launch(outputFile);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(outputFile);
            throw e;
        }
        Job job = new Job(id, command, Instant.now(), outputFile, control);
        jobs.add(job);
        return job;
    }

    List<BackgroundProcess> list() {
        return List.copyOf(jobs);
    }

    /** Whether one of them still runs. */
    boolean anyRunning() {
        return jobs.stream().anyMatch(job -> job.result().isEmpty());
    }

    /** Kills every command still running; for the sandbox's close. */
    void killAll() {
        jobs.forEach(Job::kill);
    }

    private static final class Job implements BackgroundProcess {
        private final String id;
        private final String command;
        private final Instant started;
        private final Path outputFile;
        private final Control control;
        private final AtomicReference<ExecResult> ended = new AtomicReference<>();

        Job(String id, String command, Instant started, Path outputFile, Control control) {
            this.id = id;
            this.command = command;
            this.started = started;
            this.outputFile = outputFile;
            this.control = control;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String command() {
            return command;
        }

        @Override
        public Instant started() {
            return started;
        }

        @Override
        public Path outputFile() {
            return outputFile;
        }

        @Override
        public Optional<ExecResult> result() {
            ExecResult known = ended.get();
            if (known != null) {
                return Optional.of(known);
            }
            return control.poll().map(this::end);
        }

        @Override
        public synchronized ExecResult kill() {
            return result().orElseGet(() -> end(control.kill()));
        }

        /** Records how it ended, once; later reports keep the first. */
        private ExecResult end(ExecResult result) {
            ended.compareAndSet(null, result);
            return ended.get();
        }

        @Override
        public String toString() {
            return id + " " + command;
        }
    }
}
