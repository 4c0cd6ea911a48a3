package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.testing.ScriptedServer;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launcher's start-up archive, end to end: {@code scripts/dockhand} has the JDK record it during the first run of
 * a build, quietly and without changing what that run prints or returns, starts from it from then on, and has it
 * recorded again when the jar changes. Runs the real launcher and the packaged jar (hence an integration test, after
 * {@code package}), copied into a scratch checkout, on the JDK running the tests and on the newest JDK 25 or later
 * under /usr/lib/jvm when there is one (an AOT cache there, an AppCDS archive before).
 */
class LauncherArchiveIT {
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
    void theFirstRunOfABuildRecordsTheArchiveAndLaterRunsStartFromIt(Path jdk) throws Exception {
        Path archive = archive(jdk);
        Map<String, String> variables = ChildProcess.variablesFor(checkout);
        try (ScriptedServer model = new ScriptedServer(List.of(ScriptedServer.answer("Hello.")))) {
            // The recording run answers as any run does: nothing more on stdout or stderr.
            assertEquals(
                    new Launch(0, "", "Hello.\n"),
                    launch(jdk, variables, ChildProcess.helloTo(model.baseUrl()))
                            .withoutWarning());
        }
        assertRecorded(archive);
        FileTime recorded = Files.getLastModifiedTime(archive);

        Started second = startedFrom(jdk, variables, List.of("--version"));
        assertEquals(0, second.exitCode());
        assertEquals(List.of(archive), second.archives());
        assertTrue(second.mainFromArchive(), "Main was not loaded from the archive");
        assertEquals(recorded, Files.getLastModifiedTime(archive));

        // A new build: the jar is newer than the archive, which its next run records again; a recording run's exit
        // code is its own.
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        assertEquals(
                ExitCodes.USAGE,
                launch(jdk, variables, List.of("--no-such-option")).exitCode());
        assertRecorded(archive);
        assertTrue(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0, archive + "");
        assertEquals(
                List.of(archive),
                startedFrom(jdk, variables, List.of("--version")).archives());
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

    private Path archive(Path jdk) throws IOException {
        int feature = feature(jdk);
        return jar.resolveSibling("dockhand-jdk" + feature + (feature >= 25 ? ".aot" : ".jsa"));
    }

    /** The archive is there, and no file a recording left behind beside it. */
    private void assertRecorded(Path archive) throws IOException {
        try (Stream<Path> files = Files.list(archive.getParent())) {
            assertEquals(
                    List.of(archive.getFileName().toString()),
                    files.map(file -> file.getFileName().toString())
                            .filter(name -> name.startsWith("dockhand-jdk"))
                            .toList());
        }
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
