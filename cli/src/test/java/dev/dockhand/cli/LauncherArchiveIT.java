package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.cli.bench.ScriptedServer;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launcher's start-up archives, end to end: {@code scripts/dockhand} records each at its first run of a build,
 * starts from it from then on, and records it again when the jar changes; runs that cannot use Docker have an archive
 * of their own, without the Docker classes. Runs the real launcher and the packaged jar (hence an integration test,
 * after {@code package}), copied into a scratch checkout, on the JDK running the tests and on the newest JDK 25 or
 * later under /usr/lib/jvm when there is one (AOT caches there, AppCDS archives before).
 */
public class LauncherArchiveIT {
    private static final String RECORDING = "dockhand: recording the start-up archive (once per build)...\n";
    private static final String RECORDING_WITHOUT_DOCKER =
            "dockhand: recording the start-up archive for runs without Docker (once per build)...\n";
    private static final Pattern OPENED = Pattern.compile("^Opened (?:AOT cache|archive) (.+)\\.$");

    @TempDir
    Path checkout;

    private Path jar;
    private Path launcher;

    static Stream<Path> jdks() throws IOException {
        Path running = Path.of(System.getProperty("java.home"));
        List<Path> jdks = new ArrayList<>(List.of(running));
        newestAotJdk().filter(jdk -> !jdk.equals(running)).ifPresent(jdks::add);
        return jdks.stream();
    }

    @BeforeEach
    void copyTheLauncherAndTheJar() throws IOException {
        // As the launcher sees it: it resolves its own folder's links.
        checkout = checkout.toRealPath();
        jar = checkout.resolve("cli/target/dockhand.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(Path.of("target/dockhand.jar"), jar);
        launcher = checkout.resolve("scripts/dockhand");
        Files.createDirectories(launcher.getParent());
        Files.copy(Path.of("../scripts/dockhand"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void recordsEachArchiveOncePerBuildAndStartsFromIt(Path jdk) throws Exception {
        Path withoutDocker = archive(jdk, "-sandbox-none");
        Path withDocker = archive(jdk, "");
        // Docker is pointed at a socket that does not exist, so each training takes its no-sandbox path at once,
        // whatever engine the machine runs, and a prompt stops before it calls the model.
        Map<String, String> noDocker = new HashMap<>(ChildProcess.variablesFor(checkout));
        noDocker.put("DOCKER_HOST", "unix://" + checkout.resolve("no-docker.sock"));
        List<String> version = List.of("--version");
        List<String> prompt =
                List.of("--provider", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "-p", "hello");
        String dockerDown = "dockhand: Docker does not answer at unix://" + checkout.resolve("no-docker.sock");

        // --version cannot use Docker: the archive without it.
        Launch first = launch(jdk, noDocker, version);
        assertEquals(new Launch(0, RECORDING_WITHOUT_DOCKER), first.withoutVersion());
        assertRecorded(withoutDocker);
        assertFalse(Files.exists(withDocker));
        FileTime recorded = Files.getLastModifiedTime(withoutDocker);
        Started second = startedFrom(jdk, noDocker, version);
        assertEquals(0, second.exitCode());
        assertEquals(List.of(withoutDocker), second.archives());
        assertTrue(second.mainFromArchive(), "Main was not loaded from the archive");
        assertEquals(recorded, Files.getLastModifiedTime(withoutDocker));

        // A prompt may use Docker: the other archive. Docker does not answer, so the run stops with exit code 44.
        Launch third = launch(jdk, noDocker, prompt);
        assertEquals(ExitCodes.SANDBOX_UNAVAILABLE, third.exitCode());
        assertTrue(third.stderr().startsWith(RECORDING + dockerDown), third.stderr());
        assertRecorded(withDocker);
        Started fourth = startedFrom(jdk, noDocker, prompt);
        assertEquals(ExitCodes.SANDBOX_UNAVAILABLE, fourth.exitCode());
        assertEquals(List.of(withDocker), fourth.archives());
        assertTrue(fourth.mainFromArchive(), "Main was not loaded from the archive");

        // A new build: the jar is newer than both archives, and each is recorded again at its next run.
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        assertEquals(
                new Launch(0, RECORDING_WITHOUT_DOCKER),
                launch(jdk, noDocker, version).withoutVersion());
        assertTrue(launch(jdk, noDocker, prompt).stderr().startsWith(RECORDING + dockerDown));
        for (Path archive : List.of(withoutDocker, withDocker)) {
            assertRecorded(archive);
            assertTrue(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0, archive + "");
        }
    }

    /**
     * With JDK 25's AOT cache the JVM loads every class of the cache when it starts, whether the run uses it or not.
     * So with Docker up, the archive of runs that may use Docker holds its classes, and a run that cannot use Docker
     * loads none only because it starts from the other archive.
     */
    @Test
    void onAnAotJdkRunsThatCannotUseDockerLoadNoDockerClassesWhileDockerAnswers() throws Exception {
        Optional<Path> aotJdk = newestAotJdk();
        assumeTrue(aotJdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm: nothing loads a whole cache at start");
        Path jdk = aotJdk.get();
        Map<String, String> variables = ChildProcess.variablesFor(checkout);
        DockerRequired.check(checkout, System.getenv());

        // An unknown option: the archive for runs that may use Docker, recorded with the Docker sandbox.
        List<String> mistaken = List.of("--no-such-option");
        assertEquals(ExitCodes.USAGE, launch(jdk, variables, mistaken).exitCode());
        Started unknown = startedFrom(jdk, variables, mistaken);
        assertEquals(List.of(archive(jdk, "")), unknown.archives());
        // The log does list Docker classes when the archive holds them: otherwise the empty lists below prove nothing.
        assertFalse(unknown.loadedFrom(ClassLoadingTest.DOCKER).isEmpty(), "the archive holds no Docker classes");

        assertEquals(0, launch(jdk, variables, List.of("--version")).exitCode());
        Started version = startedFrom(jdk, variables, List.of("--version"));
        assertEquals(List.of(archive(jdk, "-sandbox-none")), version.archives());
        assertEquals(List.of(), version.loadedFrom(ClassLoadingTest.DOCKER));
        try (ScriptedServer model = new ScriptedServer(List.of(ScriptedServer.answer("Hello.")))) {
            Started hello = startedFrom(jdk, variables, ChildProcess.helloTo(model.baseUrl()));
            assertEquals(new Launch(0, "", "Hello.\n"), hello.launch().withoutWarning());
            assertEquals(List.of(archive(jdk, "-sandbox-none")), hello.archives());
            assertEquals(List.of(), hello.loadedFrom(ClassLoadingTest.DOCKER));
        }
    }

    private record Launch(int exitCode, String stderr, String stdout) {
        Launch(int exitCode, String stderr) {
            this(exitCode, stderr, "");
        }

        /** The same launch, having checked that it printed the version, without the version's text. */
        Launch withoutVersion() {
            assertTrue(stdout.startsWith("dockhand "), stdout);
            return new Launch(exitCode, stderr);
        }

        /** The same launch without the warning of --sandbox none and the JVM's note on JAVA_TOOL_OPTIONS. */
        Launch withoutWarning() {
            String rest = stderr.replaceFirst("^Picked up JAVA_TOOL_OPTIONS: [^\n]*\n", "")
                    .replace("dockhand: --sandbox none: commands run directly on this machine, unconfined.\n", "");
            return new Launch(exitCode, rest, stdout);
        }
    }

    /** A launch whose JVM logged the archives it opened and the classes it loaded. */
    private record Started(Launch launch, List<Path> archives, List<String> classes) {
        int exitCode() {
            return launch.exitCode();
        }

        boolean mainFromArchive() {
            return classes.stream()
                    .anyMatch(line -> line.startsWith("dev.dockhand.cli.Main source: shared objects file"));
        }

        /** The loaded classes whose names start with any of these prefixes. */
        List<String> loadedFrom(List<String> prefixes) {
            return classes.stream()
                    .map(line -> line.split(" ", 2)[0])
                    .filter(name -> prefixes.stream().anyMatch(name::startsWith))
                    .toList();
        }
    }

    /** {@code scripts/dockhand} with these arguments on this JDK, in the scratch checkout. */
    private Launch launch(Path jdk, Map<String, String> environment, List<String> arguments) throws Exception {
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("JAVA_HOME", jdk.toString());
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(arguments);
        ChildProcess.Outcome outcome = ChildProcess.run(command, checkout, variables, Duration.ofMinutes(3));
        return new Launch(outcome.exitCode(), outcome.stderr(), outcome.stdout());
    }

    /**
     * A launch that must not record (its archive is there), with the JVM logging, through JAVA_TOOL_OPTIONS, which
     * archives it opened and where each class came from.
     */
    private Started startedFrom(Path jdk, Map<String, String> environment, List<String> arguments) throws Exception {
        Path log = Files.createTempFile(checkout, "jvm", ".log");
        String tag = feature(jdk) >= 25 ? "aot" : "cds";
        String logging = "-Xlog:class+load=info," + tag + "=info:file=" + log + ":none";
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("JAVA_TOOL_OPTIONS", logging);
        Launch launch = launch(jdk, variables, arguments);
        assertTrue(
                launch.stderr().startsWith("Picked up JAVA_TOOL_OPTIONS: " + logging + "\n")
                        && !launch.stderr().contains("recording"),
                launch.stderr());
        List<String> lines = Files.readAllLines(log);
        List<Path> archives = new ArrayList<>();
        for (String line : lines) {
            Matcher opened = OPENED.matcher(line);
            // The JDK's own base archive, which JDK 17 opens below ours, is not the launcher's doing.
            if (opened.matches() && Path.of(opened.group(1)).startsWith(checkout)) {
                archives.add(Path.of(opened.group(1)));
            }
        }
        return new Started(launch, archives, lines);
    }

    private Path archive(Path jdk, String variant) throws IOException {
        int feature = feature(jdk);
        return jar.resolveSibling("dockhand-jdk" + feature + variant + (feature >= 25 ? ".aot" : ".jsa"));
    }

    private void assertRecorded(Path archive) {
        assertTrue(Files.isRegularFile(archive), "no archive at " + archive);
        assertFalse(Files.exists(archive.resolveSibling(archive.getFileName() + ".failed")), archive + ".failed");
    }

    private static int feature(Path jdk) throws IOException {
        Matcher version =
                Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)").matcher(Files.readString(jdk.resolve("release")));
        if (!version.find()) {
            throw new AssertionError("no JAVA_VERSION in " + jdk.resolve("release"));
        }
        return Integer.parseInt(version.group(1));
    }

    private static Optional<Path> newestAotJdk() throws IOException {
        Path installed = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(installed)) {
            return Optional.empty();
        }
        Optional<Path> newest = Optional.empty();
        int newestFeature = 24;
        try (Stream<Path> jdks = Files.list(installed)) {
            for (Path jdk : jdks.sorted().toList()) {
                if (Files.isRegularFile(jdk.resolve("release"))
                        && Files.isExecutable(jdk.resolve("bin/java"))
                        && feature(jdk) > newestFeature) {
                    newestFeature = feature(jdk);
                    newest = Optional.of(jdk.toRealPath());
                }
            }
        }
        return newest;
    }
}
