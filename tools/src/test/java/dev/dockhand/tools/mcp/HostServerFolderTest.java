package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a stdio server on this machine starts: a server of the user's settings never in the workspace (where {@code
 * npx} or {@code python3 -m} would load the repository's code), a trusted project's in it. Each server is {@link
 * TestMcpServer} behind {@code sh}, which first writes the folder it was started in to a file outside the workspace.
 */
class HostServerFolderTest {
    @TempDir
    Path workspace;

    @TempDir
    Path notes;

    /** The test server, started by a shell that records {@code pwd -P} in {@code record} first. */
    private static McpServerEntry recording(Path record) {
        List<String> args = new ArrayList<>(List.of("-c", "pwd -P > \"$0\" && exec \"$@\"", record.toString()));
        args.addAll(TestMcpServer.commandLine());
        return McpServerEntry.command("/bin/sh", args);
    }

    private static Path recorded(Path record) throws Exception {
        return Path.of(Files.readString(record).strip());
    }

    private static List<Path> entries(Path folder) throws Exception {
        try (java.util.stream.Stream<Path> listed = Files.list(folder)) {
            return listed.toList();
        }
    }

    @Test
    void aServerOfTheUsersSettingsStartsInAPrivateEmptyFolderRemovedWhenItStops() throws Exception {
        Path record = notes.resolve("where");
        Files.createDirectories(workspace.resolve("node_modules/.bin"));
        Path folder;
        try (McpServers servers =
                McpServers.start(List.of(recording(record).spec("user")), workspace, McpServers.START_TIMEOUT)) {
            folder = recorded(record);
            assertEquals(
                    List.of(
                            McpServers.State.CONNECTED,
                            Path.of(System.getProperty("java.io.tmpdir")).toRealPath(),
                            true,
                            "rwx------",
                            List.of()),
                    List.of(
                            servers.statuses().get(0).state(),
                            folder.getParent(),
                            folder.getFileName().toString().startsWith("dockhand-mcp-"),
                            PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)),
                            entries(folder)));
        }
        assertEquals(false, Files.exists(folder));
    }

    @Test
    void aServerOfATrustedProjectStartsInTheWorkspaceOrItsCwdThere() throws Exception {
        Files.createDirectories(workspace.resolve("tools"));
        Path inWorkspace = notes.resolve("workspace");
        Path inTools = notes.resolve("tools");
        try (McpServers servers = McpServers.start(
                List.of(
                        recording(inWorkspace)
                                .origin(McpServerSpec.Origin.PROJECT)
                                .spec("a"),
                        recording(inTools)
                                .origin(McpServerSpec.Origin.PROJECT)
                                .cwd("tools")
                                .spec("b")),
                workspace,
                McpServers.START_TIMEOUT)) {
            assertEquals(
                    List.of(
                            McpServers.State.CONNECTED,
                            McpServers.State.CONNECTED,
                            workspace.toRealPath(),
                            workspace.resolve("tools").toRealPath()),
                    List.of(
                            servers.statuses().get(0).state(),
                            servers.statuses().get(1).state(),
                            recorded(inWorkspace),
                            recorded(inTools)));
        }
    }

    @Test
    void aServerOfTheUsersSettingsStartsInItsAbsoluteCwdAndARelativeOneIsRefused() throws Exception {
        Path record = notes.resolve("absolute");
        Path refused = notes.resolve("relative");
        try (McpServers servers = McpServers.start(
                List.of(
                        recording(record).cwd(notes.toString()).spec("absolute"),
                        recording(refused).cwd("tools").spec("relative")),
                workspace,
                McpServers.START_TIMEOUT)) {
            assertEquals(
                    List.of(
                            McpServers.State.CONNECTED,
                            notes.toRealPath(),
                            McpServers.State.FAILED,
                            Optional.of("did not start: its cwd 'tools' is relative, and a server of your own settings"
                                    + " starts in every folder, so it is not taken as relative to this one: give an"
                                    + " absolute path (\"${HOME}/tools\" for a folder in your home)."),
                            false),
                    List.of(
                            servers.statuses().get(0).state(),
                            recorded(record),
                            servers.statuses().get(1).state(),
                            servers.statuses().get(1).failure(),
                            Files.exists(refused)));
        }
    }
}
