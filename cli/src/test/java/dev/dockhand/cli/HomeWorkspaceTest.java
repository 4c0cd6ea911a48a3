package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Docker sandbox never mounts the user's home: started in the home folder or a folder above it, or including one,
 * the run stops before anything starts. Docker is pointed at a socket that does not exist, so a run that got as far as
 * the engine would exit 44 instead, and nothing here needs a daemon.
 */
class HomeWorkspaceTest extends CliTest {
    @BeforeEach
    void noDocker() {
        cli.variables.put("DOCKER_HOST", "unix://" + temp.resolve("no-docker.sock"));
    }

    private int runInDocker(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--sandbox", "docker"));
        all.addAll(List.of(args));
        return cli.run(all.toArray(String[]::new));
    }

    private String lastErrLine() {
        List<String> lines = cli.errLines();
        return lines.get(lines.size() - 1);
    }

    @Test
    void startedInTheHomeFolderTheDockerSandboxIsRefusedBeforeTheModelIsCalled() {
        cli.variables.put("HOME", cli.workspace.toString());
        cli.model.enqueue(answer("never asked"));

        assertEquals(ExitCodes.CONFIGURATION, runInDocker("-p", "hi"));

        assertEquals(
                "dockhand: the Docker sandbox would mount " + cli.workspace + ", your home folder, read-write, where a"
                        + " command could change your shell's start-up files, Git settings and SSH keys; start"
                        + " Dockhand in a project folder.",
                lastErrLine());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void startedInAFolderAboveTheHomeTheDockerSandboxIsRefused() throws Exception {
        Path home = Files.createDirectories(cli.workspace.resolve("users/me"));
        cli.variables.put("HOME", home.toString());

        assertEquals(ExitCodes.CONFIGURATION, runInDocker("-p", "hi"));

        assertEquals(
                "dockhand: the Docker sandbox would mount " + cli.workspace + ", which holds your home folder " + home
                        + ", read-write, where a command could change your shell's start-up files, Git settings and"
                        + " SSH keys; start Dockhand in a project folder.",
                lastErrLine());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void aHomeReachedThroughALinkIsRefusedAsWell() throws Exception {
        Path link = Files.createSymbolicLink(temp.resolve("home-link"), cli.workspace);
        cli.variables.put("HOME", link.toString());

        assertEquals(ExitCodes.CONFIGURATION, runInDocker("-p", "hi"));

        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void anIncludedHomeFolderIsRefused() throws Exception {
        Path home = Files.createDirectories(temp.resolve("me")).toRealPath();
        cli.variables.put("HOME", home.toString());

        assertEquals(ExitCodes.CONFIGURATION, runInDocker("--include-directory", home.toString(), "-p", "hi"));

        assertEquals(
                "dockhand: the Docker sandbox would mount " + home + ", your home folder, read-write, where a command"
                        + " could change your shell's start-up files, Git settings and SSH keys; include a project"
                        + " folder instead.",
                lastErrLine());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void withoutASandboxTheHomeFolderIsAWorkspaceLikeAnyOther() {
        cli.variables.put("HOME", cli.workspace.toString());
        cli.model.enqueue(answer("Hello."));

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "-p", "hi"));

        assertEquals("Hello.\n", cli.out.toString());
    }
}
