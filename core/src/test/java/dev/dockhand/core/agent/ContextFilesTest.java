package dev.dockhand.core.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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
                        false,
                        List.of()),
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

    @Test
    void aProjectFileLinkedOutOfTheRepositoryIsSkippedAndSaidNotSentToTheModel() throws Exception {
        write("home/.aws/credentials", "aws_secret_access_key = not-for-the-model\n");
        Files.createDirectories(temp.resolve("clone/.git"));
        Path agents = Files.createSymbolicLink(temp.resolve("clone/AGENTS.md"), Path.of("../home/.aws/credentials"));
        Path dockhand = Files.createSymbolicLink(temp.resolve("clone/DOCKHAND.md"), Path.of("/proc/self/environ"));

        ContextFiles.Context context =
                ContextFiles.load(temp.resolve("clone"), temp.resolve("nohome"), ContextFiles.DEFAULT_BUDGET_CHARS);

        assertEquals(
                new ContextFiles.Context(
                        List.of(),
                        false,
                        List.of(
                                agents + " was not read: it is a link to "
                                        + temp.resolve("home/.aws/credentials").toRealPath()
                                        + ", outside the project.",
                                dockhand + " was not read: it is a link to "
                                        + Path.of("/proc/self/environ").toRealPath() + ", outside the project.")),
                context);
        assertEquals("", context.promptSection());
    }

    @Test
    void aLinkWithinTheWorkspaceIsReadAndWhatIsNotAFileIsSkipped() throws Exception {
        Files.createDirectories(temp.resolve("repo/.git"));
        write("repo/docs/agents.md", "shared instructions");
        Path agents = Files.createSymbolicLink(temp.resolve("repo/AGENTS.md"), Path.of("docs/agents.md"));
        Path folder = Files.createDirectories(temp.resolve("repo/DOCKHAND.md"));

        ContextFiles.Context context = ContextFiles.load(temp.resolve("repo"), temp.resolve("nohome"), 100);

        assertEquals(
                new ContextFiles.Context(
                        List.of(new ContextFiles.Loaded(agents, "shared instructions")),
                        false,
                        List.of(folder + " was not read: it is not a regular file.")),
                context);
    }

    @Test
    void theWorkspacesOwnFilesAreConfinedToItWhateverGitRootIsAbove() throws Exception {
        // A downloaded project (no .git of its own) in a home folder that is a dotfiles repository.
        Files.createDirectories(temp.resolve("home/.git"));
        write("home/.aws/credentials", "aws_secret_access_key = not-for-the-model\n");
        write("home/AGENTS.md", "the user's own notes");
        Files.createDirectories(temp.resolve("home/Downloads/project"));
        Path agents = Files.createSymbolicLink(
                temp.resolve("home/Downloads/project/AGENTS.md"), Path.of("../../.aws/credentials"));

        ContextFiles.Context context = ContextFiles.load(
                temp.resolve("home/Downloads/project"), temp.resolve("nohome"), ContextFiles.DEFAULT_BUDGET_CHARS);

        assertEquals(
                new ContextFiles.Context(
                        List.of(new ContextFiles.Loaded(temp.resolve("home/AGENTS.md"), "the user's own notes")),
                        false,
                        List.of(agents + " was not read: it is a link to "
                                + temp.resolve("home/.aws/credentials").toRealPath() + ", outside the project.")),
                context);
    }

    @Test
    void aParentFoldersFileIsConfinedToThatFolderWhateverGitRootIsAbove() throws Exception {
        // A workspace in a subfolder of a downloaded project, in a home folder that is a dotfiles repository.
        Files.createDirectories(temp.resolve("home/.git"));
        write("home/.aws/credentials", "aws_secret_access_key = not-for-the-model\n");
        write("home/Downloads/project/docs/agents.md", "the project's shared notes");
        Files.createDirectories(temp.resolve("home/Downloads/project/app"));
        Path agents = Files.createSymbolicLink(
                temp.resolve("home/Downloads/project/AGENTS.md"), Path.of("../../.aws/credentials"));
        Path dockhand =
                Files.createSymbolicLink(temp.resolve("home/Downloads/project/DOCKHAND.md"), Path.of("docs/agents.md"));

        ContextFiles.Context context = ContextFiles.load(
                temp.resolve("home/Downloads/project/app"), temp.resolve("nohome"), ContextFiles.DEFAULT_BUDGET_CHARS);

        assertEquals(
                new ContextFiles.Context(
                        List.of(new ContextFiles.Loaded(dockhand, "the project's shared notes")),
                        false,
                        List.of(agents + " was not read: it is a link to "
                                + temp.resolve("home/.aws/credentials").toRealPath() + ", outside the project.")),
                context);
    }

    @Test
    void secretsInAContextFileAreRedactedLikeToolOutput() throws Exception {
        String token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        Path agents = write("project/AGENTS.md", "deploy with " + token + "\n");
        Redactor redactor = Redactor.of(SecretRules.builtIn(), new SecretValues(), Set.of(), problem -> {
            throw new AssertionError(problem);
        });

        ContextFiles.Context context =
                ContextFiles.load(temp.resolve("project"), temp.resolve("nohome"), 1000, redactor);

        assertEquals(
                List.of(new ContextFiles.Loaded(
                        agents, redactor.redact("deploy with " + token + "\n").text())),
                context.files());
        assertTrue(!context.promptSection().contains(token), context.promptSection());
        assertTrue(context.promptSection().contains("[REDACTED:"), context.promptSection());
    }

    @Test
    void aHugeFileIsReadOnlyToTheBudget() throws Exception {
        write("project/AGENTS.md", "y".repeat(5_000_000));

        ContextFiles.Context context = ContextFiles.load(temp.resolve("project"), temp.resolve("nohome"), 10);

        assertEquals(
                List.of("y".repeat(10) + "\n[… cut: the context files exceed 10 characters]"),
                context.files().stream().map(ContextFiles.Loaded::text).toList());
    }

    @Test
    void aFileCutInsideAnEmojiKeepsWholeCharacters() throws Exception {
        // U+1F600 straddles the 10-char budget.
        write("project/AGENTS.md", "y".repeat(9) + "\uD83D\uDE00 and more");

        ContextFiles.Context context = ContextFiles.load(temp.resolve("project"), temp.resolve("nohome"), 10);

        assertEquals(
                List.of("y".repeat(9) + "\n[… cut: the context files exceed 10 characters]"),
                context.files().stream().map(ContextFiles.Loaded::text).toList());
    }
}
