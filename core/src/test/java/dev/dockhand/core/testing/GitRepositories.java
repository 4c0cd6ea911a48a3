package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Real git repositories made with the host's git, for the protected-path tests. */
public final class GitRepositories {
    private GitRepositories() {}

    /** {@code git ARGS} in {@code folder}, which must succeed; returns what it printed. */
    public static String git(Path folder, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", folder.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(60, TimeUnit.SECONDS)) {
            git.destroyForcibly();
        }
        assertEquals(0, git.exitValue(), "git " + String.join(" ", args) + ": " + output);
        return output;
    }

    /** A repository at {@code folder} with a user, one commit, and a nested repository at {@code vendor/x}. */
    public static void withNestedRepository(Path folder) throws Exception {
        for (Path repository : List.of(folder, folder.resolve("vendor/x"))) {
            Files.createDirectories(repository);
            git(repository, "init", "-q");
            git(repository, "config", "user.name", "Dockhand Test");
            git(repository, "config", "user.email", "test@dockhand.invalid");
            Files.writeString(repository.resolve("README"), "hello\n");
            git(repository, "add", "README");
            git(repository, "commit", "-q", "-m", "first");
        }
    }

    /** Every file under {@code folder}'s protected places, with its content, to compare before and after. */
    public static Map<String, String> contents(Path folder, String... places) throws Exception {
        Map<String, String> contents = new TreeMap<>();
        for (String place : places) {
            Path start = folder.resolve(place);
            if (!Files.exists(start)) {
                // Absent and empty read the same: an empty folder mounted for the session holds nothing.
                continue;
            }
            try (Stream<Path> files = Files.walk(start)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    contents.put(folder.relativize(file).toString(), Files.readString(file));
                }
            }
        }
        return contents;
    }
}
