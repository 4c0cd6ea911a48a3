package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The script that sweeps in the container, run here by a stand-in that runs its helper commands on this machine (the
 * Docker tests run it in a container: DockerProtectedPathsTest).
 */
class ProtectedSweepTest {
    @TempDir
    Path temp;

    /** Runs each helper command on this machine, as the container would. */
    private static final class HereContainerFiles extends ContainerFiles {
        HereContainerFiles() {
            super(null, "here", 0, 0);
        }

        @Override
        int run(List<String> command, OutputStream out, Duration limit) throws IOException {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            process.getInputStream().transferTo(out);
            try {
                if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new IOException("timed out");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return process.exitValue();
        }
    }

    private List<String> entries(Path folder) throws IOException {
        try (Stream<Path> list = Files.list(folder)) {
            return list.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aLinkReplacedByAFolderIsPutBackAndTheFolderAndWhatItHeldAreRemoved() throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve("cfg"));
        Files.createDirectories(root.resolve(".vscode/deep"));
        Files.writeString(root.resolve(".vscode/deep/tasks.json"), "{}\n");
        Files.createSymbolicLink(root.resolve(".mcp.json"), Path.of("elsewhere"));
        Files.createSymbolicLink(root.resolve(".dockhand"), Path.of("conf"));

        ProtectedSweep.Outcome outcome = ProtectedSweep.inContainer(
                List.of(
                        new ProtectedSweep.PutBack(root.resolve(".vscode"), Path.of("cfg"), ".vscode"),
                        new ProtectedSweep.PutBack(root.resolve(".mcp.json"), Path.of("server.json"), ".mcp.json"),
                        new ProtectedSweep.PutBack(root.resolve(".dockhand"), Path.of("conf"), ".dockhand"),
                        new ProtectedSweep.PutBack(root.resolve(".claude"), Path.of("agents"), ".claude")),
                new HereContainerFiles());

        assertEquals(
                new ProtectedSweep.Outcome(List.of(), List.of(".vscode", ".mcp.json", ".claude"), List.of()), outcome);
        assertEquals(Path.of("cfg"), Files.readSymbolicLink(root.resolve(".vscode")));
        assertEquals(Path.of("server.json"), Files.readSymbolicLink(root.resolve(".mcp.json")));
        assertEquals(Path.of("agents"), Files.readSymbolicLink(root.resolve(".claude")));
        assertEquals(List.of(".claude", ".dockhand", ".mcp.json", ".vscode", "cfg"), entries(root));
    }

    @Test
    void aFolderMadeBeforehandAtTheTemporaryLinksNameIsNeverMovedOntoTheProtectedPlace() throws Exception {
        Path root = temp.toRealPath();
        Files.createDirectories(root.resolve("cfg"));
        Files.createDirectories(root.resolve(".vscode"));
        Files.writeString(root.resolve(".vscode/tasks.json"), "{\"by\":\"the command\"}\n");
        // Where the first step's link would be made, a folder of the command's own.
        Path made = Files.createDirectories(root.resolve(".dockhand-link.stem.1"));
        Files.writeString(made.resolve("tasks.json"), "{\"by\":\"the folder made beforehand\"}\n");

        ProtectedSweep.Outcome outcome = ProtectedSweep.inContainer(
                List.of(new ProtectedSweep.PutBack(root.resolve(".vscode"), Path.of("cfg"), ".vscode")),
                new HereContainerFiles(),
                "stem");

        assertEquals(new ProtectedSweep.Outcome(List.of(), List.of(), List.of(".vscode")), outcome);
        assertEquals(List.of(".dockhand-link.stem.1", ".vscode", "cfg"), entries(root));
        assertEquals(List.of("tasks.json"), entries(made));
        assertEquals("{\"by\":\"the command\"}\n", Files.readString(root.resolve(".vscode/tasks.json")));
    }

    @Test
    void whatMustStayAbsentIsRemovedALinkAsALinkAndWhatCannotBeDoneIsSaid() throws Exception {
        Path root = temp.toRealPath();
        Path secret = Files.createDirectories(root.resolve("secret"));
        Files.writeString(secret.resolve("team.cfg"), "the user's\n");
        Path git = Files.createDirectories(root.resolve("project/.git"));
        Files.createDirectories(git.resolve("commondir/x"));
        Files.writeString(git.resolve("commondir/x/team.cfg"), "the command's\n");
        Files.createSymbolicLink(git.resolve("commondir/l"), secret);
        Files.createSymbolicLink(root.resolve("project/conf"), secret);

        ProtectedSweep.Outcome outcome = ProtectedSweep.inContainer(
                List.of(
                        new ProtectedSweep.Remove(git.resolve("commondir"), ".git/commondir"),
                        new ProtectedSweep.Remove(root.resolve("project/conf"), "conf"),
                        new ProtectedSweep.Remove(root.resolve("project/gone.cfg"), "gone.cfg"),
                        // Its folder is gone: the link cannot be made.
                        new ProtectedSweep.PutBack(root.resolve("project/pkg/.vscode"), Path.of("cfg"), "pkg/.vscode")),
                new HereContainerFiles());

        assertEquals(
                new ProtectedSweep.Outcome(List.of(".git/commondir", "conf"), List.of(), List.of("pkg/.vscode")),
                outcome);
        assertFalse(Files.exists(git.resolve("commondir"), LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(root.resolve("project/conf"), LinkOption.NOFOLLOW_LINKS));
        assertEquals(List.of("team.cfg"), entries(secret));
        assertEquals(
                List.of(
                        "Removed .git/commondir, conf, which the command created: git would take its config and hooks"
                                + " from there on the user's machine. Do not work around it; tell the user.",
                        "Could not put back or remove pkg/.vscode, protected paths the command changed: git or an"
                                + " editor on the user's machine may run what is there now. Tell the user to look at"
                                + " them before using git or an editor in this project."),
                outcome.notices("the command"));
    }

    @Test
    void aFolderThatCouldNotBeCheckedIsLeftAsItIsAndSaidWhileTheOtherStepsAreTaken() throws Exception {
        Path git = Files.createDirectories(temp.toRealPath().resolve("project/.git"));
        Files.createDirectories(git.resolve("modules/lib/hooks"));
        Files.writeString(git.resolve("commondir"), "../elsewhere\n");
        String unchecked = ".git/modules (could not be checked: it holds more than 200,000 folders; look at it before"
                + " running git submodule commands)";
        List<ProtectedSweep.Step> steps = List.of(
                new ProtectedSweep.Unchecked(git.resolve("modules"), unchecked),
                new ProtectedSweep.Remove(git.resolve("commondir"), ".git/commondir"));

        ProtectedSweep.Outcome inContainer = ProtectedSweep.inContainer(steps, new HereContainerFiles());
        Files.writeString(git.resolve("commondir"), "../elsewhere\n");
        ProtectedSweep.Outcome onHost = ProtectedSweep.onHost(steps);

        ProtectedSweep.Outcome expected =
                new ProtectedSweep.Outcome(List.of(".git/commondir"), List.of(), List.of(unchecked));
        assertEquals(List.of(expected, expected), List.of(inContainer, onHost));
        assertEquals(List.of("modules"), entries(git));
        assertEquals(List.of("hooks"), entries(git.resolve("modules/lib")));
    }

    @Test
    void aContainerThatCannotRunTheStepsFailsEachOfThem() {
        ContainerFiles refusing = new ContainerFiles(null, "gone", 0, 0) {
            @Override
            int run(List<String> command, OutputStream out, Duration limit) throws IOException {
                throw new IOException("the sandbox container could not run bash: no such container");
            }
        };

        ProtectedSweep.Outcome outcome = ProtectedSweep.inContainer(
                List.of(
                        new ProtectedSweep.Remove(temp.resolve(".git/commondir"), ".git/commondir"),
                        new ProtectedSweep.PutBack(temp.resolve(".vscode"), Path.of("cfg"), ".vscode")),
                refusing);

        assertEquals(new ProtectedSweep.Outcome(List.of(), List.of(), List.of(".git/commondir", ".vscode")), outcome);
    }
}
