package dev.dockhand.core.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextFilesTest {
    @TempDir
    Path temp;

    private Path write(String path, String text) throws Exception {
        Path file = temp.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void readsFromTheGitRootDownToTheWorkspaceAfterTheUsersOwnOutermostFirst() throws Exception {
        write("AGENTS.md", "above the repository: never read");
        Files.createDirectories(temp.resolve("repo/.git"));
        Path user = write("home/AGENTS.md", "user");
        Path root = write("repo/AGENTS.md", "repo");
        Path dockhand = write("repo/DOCKHAND.md", "repo dockhand");
        Path module = write("repo/module/AGENTS.md", "module");

        ContextFiles.Context context =
                ContextFiles.load(temp.resolve("repo/module"), temp.resolve("home"), ContextFiles.DEFAULT_BUDGET_CHARS);

        assertEquals(
                new ContextFiles.Context(
                        List.of(
                                new ContextFiles.Loaded(user, "user"),
                                new ContextFiles.Loaded(root, "repo"),
                                new ContextFiles.Loaded(dockhand, "repo dockhand"),
                                new ContextFiles.Loaded(module, "module")),
                        false),
                context);
        assertEquals(
                "\n\n# Project instructions\nFollow these instructions from the user and the project (outermost"
                        + " first; later ones are more specific):\n\n## " + user + "\n\nuser\n\n## " + root
                        + "\n\nrepo\n\n## "
                        + dockhand + "\n\nrepo dockhand\n\n## " + module + "\n\nmodule\n",
                context.promptSection());
    }

    @Test
    void outsideGitOnlyTheWorkspaceIsRead() throws Exception {
        write("AGENTS.md", "parent");
        Path own = write("project/AGENTS.md", "own");

        ContextFiles.Context context =
                ContextFiles.load(temp.resolve("project"), temp.resolve("nohome"), ContextFiles.DEFAULT_BUDGET_CHARS);

        assertEquals(List.of(new ContextFiles.Loaded(own, "own")), context.files());
    }

    @Test
    void theTotalIsCappedAndSaysSo() throws Exception {
        Files.createDirectories(temp.resolve("repo/.git"));
        write("repo/AGENTS.md", "x".repeat(80));
        write("repo/DOCKHAND.md", "more");

        ContextFiles.Context context = ContextFiles.load(temp.resolve("repo"), temp.resolve("nohome"), 50);

        assertTrue(context.cut());
        assertEquals(1, context.files().size());
        assertTrue(
                context.files().get(0).text().startsWith("x".repeat(50) + "\n[… cut:"),
                context.files().toString());
    }

    @Test
    void noFilesAddNothingToThePrompt() {
        assertEquals("", ContextFiles.load(temp, temp.resolve("nohome"), 100).promptSection());
    }
}
