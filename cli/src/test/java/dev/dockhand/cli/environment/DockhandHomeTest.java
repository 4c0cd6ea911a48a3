package dev.dockhand.cli.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class DockhandHomeTest {
    @TempDir
    Path temp;

    private Path workspace() throws Exception {
        return Files.createDirectories(temp.resolve("workspace"));
    }

    private Path temporary() {
        return temp.resolve("tmp-home");
    }

    private DockhandHome.Choice choose(Map<String, String> variables, String explicit, String userHome)
            throws Exception {
        return DockhandHome.choose(
                variables, explicit, userHome, workspace(), () -> Files.createDirectories(temporary()));
    }

    @Test
    void dockhandHomeWinsOverHomeAndThePasswdEntry() throws Exception {
        Path chosen = temp.resolve("chosen");

        DockhandHome.Choice choice = choose(
                Map.of("HOME", temp.resolve("h").toString()),
                chosen.toString(),
                temp.resolve("p").toString());

        assertEquals(new DockhandHome.Choice(chosen, chosen, Optional.empty()), choice);
    }

    @Test
    void homeFromTheEnvironmentWinsOverThePasswdEntry() throws Exception {
        Path home = temp.resolve("h");

        DockhandHome.Choice choice =
                choose(Map.of("HOME", home.toString()), null, temp.resolve("p").toString());

        Path expected = home.resolve(".dockhand");
        assertEquals(new DockhandHome.Choice(expected, expected, Optional.empty()), choice);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(expected)));
    }

    @Test
    void aUidWithoutPasswdEntryAndNoHomeGetsATemporaryFolderNeverAQuestionMarkInTheWorkspace() throws Exception {
        DockhandHome.Choice choice = choose(Map.of(), null, "?");

        assertEquals(
                new DockhandHome.Choice(
                        temporary(),
                        temporary(),
                        Optional.of("there is no home folder (HOME is not an absolute path and the user has no passwd"
                                + " entry); this run keeps its sessions and outputs in " + temporary()
                                + " (set DOCKHAND_HOME to choose a folder).")),
                choice);
        assertEquals(false, Files.exists(workspace().resolve("?")));
    }

    @Test
    void aRelativeHomeIsNotUsed() throws Exception {
        Path passwd = temp.resolve("p");

        DockhandHome.Choice choice = choose(Map.of("HOME", "relative/home"), null, passwd.toString());

        Path expected = passwd.resolve(".dockhand");
        assertEquals(new DockhandHome.Choice(expected, expected, Optional.empty()), choice);
    }

    @Test
    void aHomeInsideTheWorkspaceIsRefusedAndItsSettingsAreNotRead() throws Exception {
        DockhandHome.Choice choice = choose(Map.of("HOME", workspace().toString()), null, "?");

        assertEquals(temporary(), choice.settings());
        assertEquals(temporary(), choice.data());
        assertEquals(false, Files.exists(workspace().resolve(".dockhand")));
    }

    @Test
    void fromAFolderAboveTheHomeItsSettingsAreStillReadButNothingIsWrittenThere() throws Exception {
        Path home = Files.createDirectories(workspace().resolve("users/me"));

        DockhandHome.Choice choice = choose(Map.of("HOME", home.toString()), null, "?");

        assertEquals(List.of(home.resolve(".dockhand"), temporary()), List.of(choice.settings(), choice.data()));
        assertEquals(false, Files.exists(home.resolve(".dockhand")));
    }

    @Test
    void anUnwritableHomeKeepsItsSettingsAndWritesElsewhere() throws Exception {
        // A regular file where the home folder should be: nothing can be created below it, even as root (CI runs as
        // root, where a read-only mode alone would not stop a write).
        Path blocked = Files.writeString(temp.resolve("blocked"), "");

        DockhandHome.Choice choice = choose(Map.of("HOME", blocked.toString()), null, "?");

        assertEquals(blocked.resolve(".dockhand"), choice.settings());
        assertEquals(temporary(), choice.data());
        assertEquals(
                true, choice.notice().orElseThrow().startsWith(blocked.resolve(".dockhand") + " cannot be written"));
    }
}
