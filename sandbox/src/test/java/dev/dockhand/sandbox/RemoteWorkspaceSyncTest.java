package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's worth of commands against the remote engine, where the workspace is copied in and back: what the host
 * (the file tools, the user) and the commands each do is what the other sees next, as with a mount, and nothing more
 * crosses than what changed and may.
 */
@Tag("docker")
class RemoteWorkspaceSyncTest {
    @TempDir
    Path workspace;

    /** A folder of the host outside the workspace, which a planted link points at. */
    @TempDir
    Path outside;

    private DockerSandbox sandbox;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeEach
    void realPaths() throws IOException {
        workspace = workspace.toRealPath();
        outside = outside.toRealPath();
    }

    @AfterEach
    void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    private void open(Map<String, String> env) {
        sandbox = RemoteDocker.sandbox(
                workspace, env, ProtectedLayout.lazily(List.of(workspace), ProtectedPaths.defaults()));
    }

    private ExecResult run(String command) throws IOException {
        lines.clear();
        return sandbox.exec(
                new ExecRequest(command, workspace, Duration.ofSeconds(60)), lines::add, new Cancellation());
    }

    private String read(String path) throws IOException {
        return Files.readString(workspace.resolve(path));
    }

    private void write(String path, String content) throws IOException {
        Path file = workspace.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void filesWrittenOnTheHostBetweenCommandsAreWhatTheNextCommandSees() throws Exception {
        write("src/App.java", "class App {}\n");
        open(Map.of());
        assertEquals(ExecResult.exited(0), run("cat src/App.java"));
        assertEquals(List.of("class App {}"), lines);

        // As the file tools do: an edit, a new file in a new folder, a deletion, a script made executable.
        write("src/App.java", "class App { int x; }\n");
        write("test/AppTest.java", "class AppTest {}\n");
        write("run.sh", "#!/bin/sh\necho ran\n");
        Files.setPosixFilePermissions(workspace.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(ExecResult.exited(0), run("cat src/App.java test/AppTest.java && ./run.sh"));
        assertEquals(List.of("class App { int x; }", "class AppTest {}", "ran"), lines);

        Files.delete(workspace.resolve("test/AppTest.java"));
        Files.delete(workspace.resolve("test"));
        assertEquals(ExecResult.exited(0), run("ls -A; test -e test || echo 'test is gone'"));
        assertEquals(List.of("run.sh", "src", "test is gone"), lines);
    }

    @Test
    void whatABackgroundCommandWroteComesBackWhenTheSessionEndsByTheSameRulesAsAfterACommand() throws Exception {
        write("edited.txt", "before\n");
        open(Map.of());
        assertEquals(ExecResult.exited(0), run("true"));
        BackgroundProcess job = sandbox.start(
                "echo made > made.txt && echo container > edited.txt && mkdir -p .vscode && echo '{}' >"
                        + " .vscode/settings.json && echo written",
                workspace,
                outside.resolve("jobs"));
        // Its output file is on the host: once it says so, the files are written in the container.
        while (!(Files.exists(job.outputFile())
                && Files.readString(job.outputFile()).equals("written\n"))) {
            Thread.onSpinWait();
        }
        // The user edits one of them meanwhile: that edit stays, as after a command.
        write("edited.txt", "user\n");

        List<String> notices = sandbox.closeAndReport();
        sandbox = null;

        // No command's result is left to carry what stayed in the sandbox: the close returns it, worded for the user.
        assertEquals(
                List.of(
                        "copying back at the end of the session: A command changed protected paths in the sandbox"
                                + " (.vscode, .vscode/settings.json); the changes were not copied to this machine,"
                                + " since what is written there (git hooks and config, editor and Dockhand settings)"
                                + " runs here later. To let a path through, start Dockhand with --allow-protected-path"
                                + " PATH.",
                        "copying back at the end of the session: Left as it is on this machine, since it changed"
                                + " here too or was never synced, so the command's version went with the sandbox:"
                                + " edited.txt (changed on both sides)."),
                notices);
        assertEquals(
                List.of("made\n", "user\n", false),
                List.of(
                        read("made.txt"),
                        read("edited.txt"),
                        Files.exists(workspace.resolve(".vscode"), LinkOption.NOFOLLOW_LINKS)));
    }

    @Test
    void whatACommandCreatesEditsAndDeletesIsTheSameOnTheHostWhenItReturns() throws Exception {
        write("keep.txt", "kept\n");
        write("edit.txt", "before\n");
        write("old/gone.txt", "gone\n");
        open(Map.of());

        ExecResult result = run("echo after > edit.txt && rm -r old && mkdir -p new/empty && printf 'made\\n' >"
                + " new/made.txt && printf '#!/bin/sh\\n' > new/tool && chmod 755 new/tool && ln -s made.txt"
                + " new/link");

        assertEquals(ExecResult.exited(0), result);
        assertEquals("kept\n", read("keep.txt"));
        assertEquals("after\n", read("edit.txt"));
        assertFalse(Files.exists(workspace.resolve("old"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(workspace.resolve("new/empty")));
        assertEquals("made\n", read("new/made.txt"));
        assertEquals(
                "rwxr-xr-x",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(workspace.resolve("new/tool"))));
        assertEquals(Path.of("made.txt"), Files.readSymbolicLink(workspace.resolve("new/link")));
        assertEquals(HostIdentity.current().uid(), Files.getAttribute(workspace.resolve("new/made.txt"), "unix:uid"));
        assertEquals(Optional.empty(), result.notice());
    }

    @Test
    void onlyTheFilesACommandChangedAreCopiedBack() throws Exception {
        write("a.txt", "a\n");
        write("b.txt", "b\n");
        open(Map.of());
        assertEquals(ExecResult.exited(0), run("true"));
        Object aBefore = Files.getAttribute(workspace.resolve("a.txt"), "unix:ino");
        Object bBefore = Files.getAttribute(workspace.resolve("b.txt"), "unix:ino");

        assertEquals(ExecResult.exited(0), run("echo changed > a.txt; cat b.txt > /dev/null"));

        // A copied-back file is renamed into place, so it is a new inode; an untouched one keeps its own.
        assertEquals("changed\n", read("a.txt"));
        assertFalse(aBefore.equals(Files.getAttribute(workspace.resolve("a.txt"), "unix:ino")));
        assertEquals(bBefore, Files.getAttribute(workspace.resolve("b.txt"), "unix:ino"));
    }

    @Test
    void aLinkPlantedByACommandIsCopiedAsALinkAndNeverWrittenThrough() throws Exception {
        open(Map.of());

        ExecResult planted = run("ln -s " + outside + " escape && mkdir -p " + outside + " && echo pwned > escape/x");

        assertEquals(ExecResult.exited(0), planted);
        assertEquals(outside, Files.readSymbolicLink(workspace.resolve("escape")));
        assertEquals(List.of(), list(outside));

        // The link becomes a folder in the container: on the host the link goes, and the folder is made in its place.
        ExecResult replaced = run("rm escape && mkdir escape && echo safe > escape/y");

        assertEquals(ExecResult.exited(0), replaced);
        assertTrue(Files.isDirectory(workspace.resolve("escape"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("safe\n", read("escape/y"));
        assertEquals(List.of(), list(outside));
    }

    @Test
    void ignoredAndOversizedFilesAreNotCopiedInNorBack() throws Exception {
        write(".gitignore", "build/\n*.log\n");
        write("build/out.bin", "built\n");
        write("app.log", "log\n");
        write("big.bin", "x".repeat(2048));
        write("small.txt", "small\n");
        open(Map.of(SyncLimits.MAX_FILE, "1k"));

        assertEquals(ExecResult.exited(0), run("find . -type f | sort"));
        assertEquals(List.of("./.gitignore", "./small.txt"), lines);

        ExecResult result = run("mkdir -p build && echo o > build/new.o && echo l > debug.log && head -c 4096 /dev/zero"
                + " > huge.bin && echo ok > fine.txt");

        assertEquals(
                ExecResult.exited(0)
                        .withNotice("Files larger than 1 KiB stay in the sandbox and were not copied to the user's"
                                + " machine: huge.bin."),
                result);
        assertEquals("ok\n", read("fine.txt"));
        assertEquals(List.of("out.bin"), list(workspace.resolve("build")));
        assertFalse(Files.exists(workspace.resolve("debug.log")));
        assertFalse(Files.exists(workspace.resolve("huge.bin")));
    }

    @Test
    void aRuleACommandAddsToGitignoreDecidesWhatElseItsChangesBringBack() throws Exception {
        write(".gitignore", "*.log\n");
        open(Map.of());

        assertEquals(ExecResult.exited(0), run("echo out/ >> .gitignore && mkdir out && echo o > out/o.txt"));

        assertEquals("*.log\nout/\n", read(".gitignore"));
        assertFalse(Files.exists(workspace.resolve("out")));
    }

    @Test
    void protectedPathsAreCopiedInButAChangeToThemStaysOutAndIsUndone() throws Exception {
        write(".git/config", "[core]\n\tbare = false\n");
        write(".git/HEAD", "ref: refs/heads/main\n");
        Files.createDirectories(workspace.resolve(".git/hooks"));
        open(Map.of());

        ExecResult result = run("cat .git/config && echo '[core] hooksPath = /x' >> .git/config && printf"
                + " '#!/bin/sh\\n' > .git/hooks/pre-commit && echo ref > .git/HEAD");

        assertEquals(
                ExecResult.exited(0)
                        .withNotice("The command changed protected paths in the sandbox (.git/config,"
                                + " .git/hooks/pre-commit); the changes were not copied to the user's machine and are"
                                + " undone before the next command, since what is written there (git hooks and"
                                + " config, editor and Dockhand settings) runs later on the user's machine. Do not"
                                + " work around it: tell the user, who can allow a path with --allow-protected-path"
                                + " PATH."),
                result);
        assertEquals(List.of("[core]", "\tbare = false"), lines);
        assertEquals("[core]\n\tbare = false\n", read(".git/config"));
        assertFalse(Files.exists(workspace.resolve(".git/hooks/pre-commit")));
        assertEquals("ref\n", read(".git/HEAD"), "the rest of the git folder is the command's to change");

        assertEquals(ExecResult.exited(0), run("cat .git/config; test -e .git/hooks/pre-commit || echo no hook"));
        assertEquals(List.of("[core]", "\tbare = false", "no hook"), lines);
    }

    @Test
    void aCommandCannotReplaceTheGitFolderWithARedirectNorPlantANewOne() throws Exception {
        write(".git/config", "[core]\n\tbare = false\n");
        write(".git/HEAD", "ref: refs/heads/main\n");
        Files.createDirectories(workspace.resolve(".git/hooks"));
        open(Map.of());

        ExecResult result = run("mkdir -p .old sub && printf '[core]\\n\\tfsmonitor = /tmp/x\\n' > .old/config"
                + " && rm -rf .git && echo 'gitdir: .old' > .git && echo 'gitdir: ../.old' > sub/.git"
                + " && mkdir -p .GIT/hooks && echo boom > .GIT/hooks/post-checkout");

        assertEquals(
                ExecResult.exited(0)
                        .withNotice("The command changed protected paths in the sandbox (.GIT, .GIT/hooks,"
                                + " .GIT/hooks/post-checkout, .git, .git/HEAD, .git/config, .git/hooks, sub/.git);"
                                + " the changes were not copied to the user's machine and are undone before the next"
                                + " command, since what is written there (git hooks and config, editor and Dockhand"
                                + " settings) runs later on the user's machine. Do not work around it: tell the user,"
                                + " who can allow a path with --allow-protected-path PATH."),
                result);
        assertEquals(List.of("HEAD", "config", "hooks"), list(workspace.resolve(".git")));
        assertEquals("[core]\n\tbare = false\n", read(".git/config"));
        assertEquals(List.of(), list(workspace.resolve("sub")));

        assertEquals(ExecResult.exited(0), run("cat .git/HEAD; ls -A sub; test -e .GIT || echo no .GIT"));
        assertEquals(List.of("ref: refs/heads/main", "no .GIT"), lines);
    }

    @Test
    void aPathTheHostHasButNeverCopiedInIsLeftAsItIs() throws Exception {
        write("big.bin", "x".repeat(2048));
        write("huge.bin", "y".repeat(2048));
        open(Map.of(SyncLimits.MAX_FILE, "1k"));

        ExecResult result = run("mkdir big.bin && echo small > huge.bin && echo ok > fine.txt");

        assertEquals(
                ExecResult.exited(0)
                        .withNotice("Left as it is on the user's machine, since it changed there too or was never"
                                + " synced, so the command's version stays only in the sandbox: big.bin (not synced),"
                                + " huge.bin (not synced)."),
                result);
        assertEquals(
                List.of("x".repeat(2048), "y".repeat(2048), "ok\n"),
                List.of(read("big.bin"), read("huge.bin"), read("fine.txt")));
    }

    @Test
    void aFolderACommandReplacesByAFileStaysWhileItHoldsFilesNeverCopiedIn() throws Exception {
        write(".gitignore", "*.log\n");
        write("gen/a.txt", "synced\n");
        write("gen/run.log", "ignored\n");
        write("out/b.txt", "synced\n");
        open(Map.of());

        ExecResult result = run("rm -rf gen out && echo x > gen && echo y > out");

        assertEquals(
                ExecResult.exited(0)
                        .withNotice("Left as it is on the user's machine, since it changed there too or was never"
                                + " synced, so the command's version stays only in the sandbox: gen (the folder holds"
                                + " gen/run.log, which was not synced)."),
                result);
        assertEquals(
                List.of(List.of("run.log"), "ignored\n", "y\n"),
                List.of(list(workspace.resolve("gen")), read("gen/run.log"), read("out")));
    }

    private static List<String> list(Path folder) {
        try (var entries = Files.list(folder)) {
            List<String> names = new ArrayList<>();
            entries.forEach(entry -> names.add(entry.getFileName().toString()));
            names.sort(null);
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
