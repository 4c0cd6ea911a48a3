package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Json;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The no-Docker CI recipe of docs/ci.md, run as CI containers run it: as uid 12345 with no passwd entry (OpenShift,
 * {@code docker run --user}), no terminal, a clean environment, against a scripted model. Needs root to switch to
 * that uid ({@code setpriv}); CI runs as root. Uses the built jar, as a job would.
 */
public class CiContainerRunIT {
    private static final int UID = 12345;

    private final ScriptedModel model = new ScriptedModel();
    private Path base;
    private Path workspace;
    private Path jar;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue(
                "root".equals(System.getProperty("user.name")) && new File("/usr/bin/setpriv").canExecute(),
                "switching to an arbitrary uid needs root and setpriv; this run has neither");
        // The test's own temporary folders are root's, owner-only: the uid could not even reach them.
        base = Files.createTempDirectory(Path.of("/tmp"), "dockhand-ci-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        jar = Files.copy(Path.of("target/dockhand.jar"), base.resolve("dockhand.jar"));
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
        workspace = ownedByTheUid(base.resolve("project"));
        Files.writeString(workspace.resolve("notes.txt"), "remember\n");
        Files.setAttribute(workspace.resolve("notes.txt"), "unix:uid", UID);
        ownedByTheUid(base.resolve("out"));
        // The run's java.io.tmpdir: a temporary folder Dockhand falls back to lands here, and tearDown removes it,
        // where in /tmp it would be left behind after every run.
        Files.setPosixFilePermissions(ownedByTheUid(base.resolve("tmp")), PosixFilePermissions.fromString("rwx------"));
        model.enqueue(
                calls(toolCall(
                        "w1", "write_file", "{\"path\":\"CHANGELOG.md\",\"content\":\"# Changes\\n- notes kept\\n\"}")),
                answer("I wrote the changelog."));
    }

    @AfterEach
    void tearDown() throws IOException {
        model.close();
        if (base != null) {
            try (Stream<Path> all = Files.walk(base)) {
                all.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    private static Path ownedByTheUid(Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.setAttribute(folder, "unix:uid", UID);
        Files.setAttribute(folder, "unix:gid", UID);
        return folder;
    }

    private record Run(int exitCode, String stdout, String stderr) {}

    private Run run(Map<String, String> variables) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "/usr/bin/setpriv",
                "--reuid=" + UID,
                "--regid=" + UID,
                "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + base.resolve("tmp"),
                "-jar",
                jar.toString(),
                "--yolo",
                "--sandbox",
                "none",
                "--provider",
                "openai",
                "--model",
                "m",
                "--retries",
                "0",
                "--output-format",
                "stream-json",
                "--summary-file",
                base.resolve("out/summary.md").toString(),
                "-p",
                "keep a changelog"));
        Path stdout = base.resolve("stdout");
        Path stderr = base.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workspace.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        // A job's environment, not the test runner's: no DOCKHAND_HOME, no JAVA_TOOL_OPTIONS.
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("CI", "true");
        builder.environment().put("OPENAI_API_KEY", "sk-test");
        builder.environment().put("OPENAI_BASE_URL", model.baseUrl());
        builder.environment().putAll(variables);
        Process process = builder.start();
        assertTrue(process.waitFor(3, TimeUnit.MINUTES), "the run should end");
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    /** Every file in the workspace with its content: what the model wrote must be all that changed. */
    private Map<String, String> workspaceFiles() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(workspace)) {
            for (Path path : all.filter(Files::isRegularFile).toList()) {
                files.put(workspace.relativize(path).toString(), Files.readString(path));
            }
        }
        try (Stream<Path> all = Files.walk(workspace)) {
            all.filter(Files::isDirectory)
                    .filter(path -> !path.equals(workspace))
                    .forEach(path -> files.put(workspace.relativize(path) + "/", ""));
        }
        return files;
    }

    private void assertTheRunDidOnlyTheModelsEdit(Run run) throws IOException {
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(Map.of("notes.txt", "remember\n", "CHANGELOG.md", "# Changes\n- notes kept\n"), workspaceFiles());
        assertEquals(List.of(), HeadlessSchema.problems(run.stdout()));
        assertEquals(
                "result",
                Json.read(run.stdout().lines().reduce((a, b) -> b).orElseThrow())
                        .get("type")
                        .asText());
        assertEquals(
                "## Dockhand: answered",
                Files.readAllLines(base.resolve("out/summary.md")).get(0));
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void withHomeSetTheSessionIsKeptThereOwnerOnlyAndTheWorkspaceHoldsOnlyTheEdit() throws Exception {
        Path home = ownedByTheUid(base.resolve("h"));

        Run run = run(Map.of("HOME", home.toString()));

        assertTheRunDidOnlyTheModelsEdit(run);
        Path dockhand = home.resolve(".dockhand");
        List<Path> sessions;
        try (Stream<Path> all = Files.walk(dockhand.resolve("sessions"))) {
            sessions = all.filter(path -> path.toString().endsWith(".jsonl")).toList();
        }
        assertEquals(1, sessions.size());
        assertEquals(List.of("rwx------", "rw-------"), List.of(permissions(dockhand), permissions(sessions.get(0))));
    }

    @Test
    void withoutHomeTheRunUsesAPrivateTemporaryFolderAndSaysSo() throws Exception {
        Run run = run(new HashMap<>());

        assertTheRunDidOnlyTheModelsEdit(run);
        assertTrue(run.stderr().contains("there is no home folder"), run.stderr());
        // The private temporary folder the run fell back to, its random digits left out.
        List<String> temporary = new ArrayList<>();
        try (Stream<Path> made = Files.list(base.resolve("tmp"))) {
            for (Path folder : made.toList()) {
                temporary.add(folder.getFileName().toString().replaceAll("[0-9]+$", "") + " " + permissions(folder));
            }
        }
        assertEquals(List.of("dockhand- rwx------"), temporary);
    }

    @Test
    void withAHomeItCannotWriteTheRunStillSucceeds() throws Exception {
        // Root's folder, readable but not writable by the uid.
        Path home = Files.createDirectories(base.resolve("read-only-home"));

        Run run = run(Map.of("HOME", home.toString()));

        assertTheRunDidOnlyTheModelsEdit(run);
        assertTrue(run.stderr().contains("cannot be written"), run.stderr());
    }
}
