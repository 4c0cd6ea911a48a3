package dev.dockhand.cli.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxesTest {
    @TempDir
    Path temp;

    @Test
    void theFileSystemsRootIsNeverMountedWhateverTheHome() {
        CliEnvironment environment = new CliEnvironment(
                Map.of("HOME", temp.toString()),
                Path.of("/"),
                temp.resolve("dockhand"),
                InputStream.nullInputStream(),
                false);

        DockhandException refused = assertThrows(
                DockhandException.class, () -> Sandboxes.refuseHomeMounts(List.of(Path.of("/")), environment));

        assertEquals(
                List.of(
                        ExitCodes.CONFIGURATION,
                        "the Docker sandbox would mount /, the whole file system, read-write, where a command could"
                                + " change your shell's start-up files, Git settings and SSH keys; start Dockhand in"
                                + " a project folder."),
                List.of(refused.exitCode(), refused.getMessage()));
    }

    @Test
    void commandsWithoutASandboxGetNoVariableTheRedactorTakesForASecret() {
        Map<String, String> variables = new java.util.TreeMap<>();
        for (String name : List.of(
                "API_KEY",
                "TOKEN",
                "SECRET_KEY",
                "GH_PAT",
                "DATABASE_URL",
                "OPENAI_API_KEY",
                "GITHUB_TOKEN",
                "CLIENT_SECRET",
                "PGPASSWORD",
                "WORK_LLM")) {
            variables.put(name, "value-of-" + name);
        }
        variables.put("SIGNING_KEY", "q8Zr2LxK7vNw4TpB9cYh3MdF");
        variables.put("MONKEY_KEY", "aaaaaaaaaaaaaaaaaaaa");
        variables.put("TOKENIZERS_PARALLELISM", "false");
        variables.put("HOME", "/home/u");
        variables.put("DEPLOY_TOKEN", "named with --sandbox-env");

        Map<String, String> passed =
                Sandboxes.commandEnvironment(variables, "WORK_LLM", java.util.Set.of("DEPLOY_TOKEN"));

        assertEquals(
                Map.of(
                        "MONKEY_KEY", "aaaaaaaaaaaaaaaaaaaa",
                        "TOKENIZERS_PARALLELISM", "false",
                        "HOME", "/home/u",
                        "DEPLOY_TOKEN", "named with --sandbox-env"),
                passed);
    }
}
