package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launcher's start-up archive, end to end: {@code scripts/dockhand} records it at the first run of a build, uses
 * it from then on, and records it again when the jar changes. Runs the real launcher and the packaged jar (hence an
 * integration test, after {@code package}), copied into a scratch checkout, on the JDK running the tests and on the
 * newest JDK 25 or later under /usr/lib/jvm when there is one (an AOT cache there, an AppCDS archive before).
 */
class LauncherArchiveIT {
    private static final String RECORDING = "dockhand: recording the start-up archive (once per build)...\n";

    @TempDir
    Path checkout;

    static Stream<Path> jdks() throws IOException {
        Path running = Path.of(System.getProperty("java.home"));
        List<Path> jdks = new ArrayList<>(List.of(running));
        newestAotJdk().filter(jdk -> !jdk.equals(running)).ifPresent(jdks::add);
        return jdks.stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void recordsTheArchiveOncePerBuildAndStartsFromIt(Path jdk) throws Exception {
        Path jar = checkout.resolve("cli/target/dockhand.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(Path.of("target/dockhand.jar"), jar);
        Path launcher = checkout.resolve("scripts/dockhand");
        Files.createDirectories(launcher.getParent());
        Files.copy(Path.of("../scripts/dockhand"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        int feature = feature(jdk);
        Path archive = jar.resolveSibling("dockhand-jdk" + feature + (feature >= 25 ? ".aot" : ".jsa"));

        Run first = version(launcher, jdk, Map.of());
        assertEquals(new Run(0, RECORDING), first.withoutVersion());
        assertTrue(Files.isRegularFile(archive), "no archive at " + archive);
        assertFalse(Files.exists(archive.resolveSibling(archive.getFileName() + ".failed")));
        FileTime recorded = Files.getLastModifiedTime(archive);

        Path classes = checkout.resolve("classes.txt");
        String logging = "-Xlog:class+load=info:file=" + classes + ":none";
        Run second = version(launcher, jdk, Map.of("JAVA_TOOL_OPTIONS", logging));
        assertEquals(new Run(0, "Picked up JAVA_TOOL_OPTIONS: " + logging + "\n"), second.withoutVersion());
        assertEquals(recorded, Files.getLastModifiedTime(archive));
        // The JVM says where each class came from: the entry point from the archive, not from the jar.
        List<String> main = Files.readAllLines(classes).stream()
                .filter(line -> line.startsWith("dev.dockhand.cli.Main "))
                .toList();
        assertEquals(1, main.size(), main.toString());
        assertTrue(main.get(0).startsWith("dev.dockhand.cli.Main source: shared objects file"), main.get(0));

        // A new build: the jar is newer than the archive.
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        Run rebuilt = version(launcher, jdk, Map.of());
        assertEquals(new Run(0, RECORDING), rebuilt.withoutVersion());
        assertTrue(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0);
        assertFalse(Files.exists(archive.resolveSibling(archive.getFileName() + ".failed")));
    }

    private record Run(int exitCode, String stderr, String stdout) {
        Run(int exitCode, String stderr) {
            this(exitCode, stderr, "");
        }

        /** The same run, having checked that it printed the version, without the version's text. */
        Run withoutVersion() {
            assertTrue(stdout.startsWith("dockhand "), stdout);
            return new Run(exitCode, stderr);
        }
    }

    /**
     * {@code scripts/dockhand --version} with this JDK. Docker is pointed at a socket that does not exist, so the
     * training takes its no-sandbox path at once, whatever engine the machine runs.
     */
    private Run version(Path launcher, Path jdk, Map<String, String> environment) throws Exception {
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("JAVA_HOME", jdk.toString());
        variables.put("DOCKER_HOST", "unix://" + checkout.resolve("no-docker.sock"));
        ChildProcess.Outcome outcome =
                ChildProcess.run(List.of(launcher.toString(), "--version"), checkout, variables, Duration.ofMinutes(3));
        return new Run(outcome.exitCode(), outcome.stderr(), outcome.stdout());
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
