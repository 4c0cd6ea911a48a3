package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code dockhand mcp add|list|remove} on real settings files. */
class McpCommandTest extends CliTest {
    private static final Path EVERYTHING = Path.of(System.getenv()
            .getOrDefault("DOCKHAND_MCP_EVERYTHING", "/opt/mcp-everything/node_modules/.bin/mcp-server-everything"));

    private Path user;

    @BeforeEach
    void open() throws Exception {
        user = temp.resolve("home/settings.json");
    }

    private String lastErr() {
        return cli.err.toString().lines().reduce((a, b) -> b).orElse("");
    }

    @Test
    void addWritesTheServerAndKeepsEveryOtherKeyAndNumberAsItWas() throws Exception {
        Files.createDirectories(user.getParent());
        Files.writeString(
                user,
                "{\"model\": \"m\", \"pricing\": {\"m\": {\"input\": 1.50}}, \"mcpServers\": {\"old\": {\"url\":"
                        + " \"http://127.0.0.1:1/mcp\"}}}");

        assertEquals(
                ExitCodes.OK,
                cli.run("mcp", "add", "-e", "TOKEN=${MY_TOKEN}", "files", "--", "npx", "-y", "server-files", "."));

        assertEquals(
                "{\n"
                        + "  \"model\" : \"m\",\n"
                        + "  \"pricing\" : {\n"
                        + "    \"m\" : {\n"
                        + "      \"input\" : 1.50\n"
                        + "    }\n"
                        + "  },\n"
                        + "  \"mcpServers\" : {\n"
                        + "    \"old\" : {\n"
                        + "      \"url\" : \"http://127.0.0.1:1/mcp\"\n"
                        + "    },\n"
                        + "    \"files\" : {\n"
                        + "      \"type\" : \"stdio\",\n"
                        + "      \"command\" : \"npx\",\n"
                        + "      \"args\" : [ \"-y\", \"server-files\", \".\" ],\n"
                        + "      \"env\" : {\n"
                        + "        \"TOKEN\" : \"${MY_TOKEN}\"\n"
                        + "      }\n"
                        + "    }\n"
                        + "  }\n"
                        + "}\n",
                Files.readString(user));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(user)));
        assertEquals("Added the MCP server 'files' to " + user + ".\n", cli.out.toString());
        assertEquals(
                List.of("settings.json"),
                Files.list(user.getParent())
                        .map(path -> path.getFileName().toString())
                        .toList());
    }

    @Test
    void addWritesAnHttpServerWithHeadersIntoTheProjectsFile() throws Exception {
        assertEquals(
                ExitCodes.OK,
                cli.run(
                        "mcp",
                        "add",
                        "--transport",
                        "http",
                        "--scope",
                        "project",
                        "-H",
                        "Authorization: Bearer ${DOCS_TOKEN}",
                        "docs",
                        "https://docs.example.com/mcp"));

        assertEquals(
                "{\n"
                        + "  \"mcpServers\" : {\n"
                        + "    \"docs\" : {\n"
                        + "      \"type\" : \"http\",\n"
                        + "      \"url\" : \"https://docs.example.com/mcp\",\n"
                        + "      \"headers\" : {\n"
                        + "        \"Authorization\" : \"Bearer ${DOCS_TOKEN}\"\n"
                        + "      }\n"
                        + "    }\n"
                        + "  }\n"
                        + "}\n",
                Files.readString(cli.workspace.resolve(".dockhand/settings.json")));
    }

    @Test
    void addRefusesADuplicateABadPairAndAFileThatIsNotJson() throws Exception {
        assertEquals(ExitCodes.OK, cli.run("mcp", "add", "x", "--", "server"), cli.err::toString);
        String written = Files.readString(user);

        assertEquals(ExitCodes.USAGE, cli.run("mcp", "add", "x", "--", "other"));
        assertEquals(
                "dockhand: There is already an MCP server 'x' in " + user
                        + "; remove it first (dockhand mcp remove x).",
                lastErr());
        assertEquals(ExitCodes.USAGE, cli.run("mcp", "add", "-e", "NOEQUALS", "y", "--", "server"));
        assertEquals("dockhand: -e NOEQUALS is not KEY=VALUE.", lastErr());
        assertEquals(written, Files.readString(user));

        Files.writeString(user, "{\"model\": ");
        assertEquals(ExitCodes.CONFIGURATION, cli.run("mcp", "add", "z", "--", "server"));
        assertEquals(
                "dockhand: " + user + " is not valid JSON at line 1, column 11: Unexpected end-of-input"
                        + " within/between Object entries; fix it first.",
                lastErr());
        assertEquals("{\"model\": ", Files.readString(user));
    }

    @Test
    void aProjectScopeAddThroughALinkedDockhandFolderLeavesTheUsersFileAlone() throws Exception {
        Files.createDirectories(user.getParent());
        String users = "{\"redaction\": {\"secretValues\": [\"hunter2\"]}}\n";
        Files.writeString(user, users);
        Path folder = Files.createSymbolicLink(cli.workspace.resolve(".dockhand"), user.getParent());

        assertEquals(
                ExitCodes.CONFIGURATION, cli.run("mcp", "add", "--scope", "project", "files", "--", "server-files"));

        Path file = folder.resolve("settings.json");
        assertEquals(
                "dockhand: Cannot add the MCP server to " + file + ": " + file + " is reached through " + folder
                        + ", a link to " + user.getParent() + "; a project's settings are changed only in a file of"
                        + " their own.",
                lastErr());
        assertEquals(users, Files.readString(user));
    }

    @Test
    void removeTakesTheServerOutOfTheFileThatHasIt() throws Exception {
        Files.createDirectories(user.getParent());
        Files.writeString(
                user, "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"b\": {\"command\": \"y\"}}, \"model\": \"m\"}");

        assertEquals(ExitCodes.OK, cli.run("mcp", "remove", "a"), cli.err::toString);
        assertEquals(
                "{\n  \"mcpServers\" : {\n    \"b\" : {\n      \"command\" : \"y\"\n    }\n  },\n  \"model\" : \"m\"\n}\n",
                Files.readString(user));
        assertEquals(ExitCodes.USAGE, cli.run("mcp", "remove", "a"));
        assertEquals(
                "dockhand: There is no MCP server 'a' in " + user + " or "
                        + cli.workspace.resolve(".dockhand/settings.json") + ".",
                lastErr());
    }

    @Test
    void listShowsEachServerConnectedWithItsToolCountOrWhyNot() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(EVERYTHING), "server-everything is not installed at " + EVERYTHING);
        Files.createDirectories(user.getParent());
        Files.writeString(
                user,
                "{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"includeTools\": [\"echo\","
                        + " \"get-sum\"]}, \"gone\": {\"command\": \"" + temp.resolve("no-such-server") + "\"}}}");

        assertEquals(ExitCodes.OK, cli.run("mcp", "list"));

        List<String> lines = cli.out.toString().lines().toList();
        assertEquals("everything  stdio  connected, 2 tools", lines.get(0));
        assertEquals(
                "gone        stdio  failed: did not start: there is no program " + temp.resolve("no-such-server") + ".",
                lines.get(1));
    }

    @Test
    void aServerOfTheUsersSettingsDoesNotLoadWhatTheWorkspaceShipsAndATrustedProjectsStartsInIt() throws Exception {
        Assumptions.assumeTrue(
                dev.dockhand.core.HostPrograms.find("python3").isPresent(), "python3 is not on the PATH");
        // The repository ships a module that python3 -m finds in the folder it starts in (hand-written for this test).
        Path ran = temp.resolve("ran");
        Files.writeString(
                cli.workspace.resolve("server.py"), "import os\nopen('" + ran + "', 'w').write(os.getcwd())\n");
        String entry = "{\"mcpServers\": {\"server\": {\"command\": \"python3\", \"args\": [\"-m\", \"server\"]}}}";
        cli.userSettings(entry);

        assertEquals(ExitCodes.OK, cli.run("mcp", "list"));
        assertEquals(
                List.of(
                        "server  stdio  failed: did not start: its process exited with code 1. Its stderr ended with:",
                        false),
                List.of(cli.out.toString().lines().findFirst().orElseThrow(), Files.exists(ran)));

        // The same entry in the settings of a project the user trusts is the project's own program, run in it.
        cli.projectSettings(entry);
        assertEquals(ExitCodes.OK, cli.run("--trust-project", "mcp", "list"));
        assertEquals(cli.workspace.toString(), Files.readString(ran));
    }

    @Test
    void listSaysSoWhenNoServerIsConfigured() {
        assertEquals(ExitCodes.OK, cli.run("mcp", "list"));
        assertEquals(
                "No MCP servers are configured; add one with dockhand mcp add NAME -- COMMAND ARGS… (see"
                        + " docs/mcp.md).\n",
                cli.out.toString());
    }

    @Test
    void addWithSandboxWritesTheKeyAndRefusesItForAnHttpServer() throws Exception {
        assertEquals(
                ExitCodes.OK,
                cli.run("mcp", "add", "--sandbox", "box", "--", "python3", "server.py"),
                cli.err::toString);
        assertEquals(
                "{\n"
                        + "  \"mcpServers\" : {\n"
                        + "    \"box\" : {\n"
                        + "      \"type\" : \"stdio\",\n"
                        + "      \"command\" : \"python3\",\n"
                        + "      \"args\" : [ \"server.py\" ],\n"
                        + "      \"sandbox\" : true\n"
                        + "    }\n"
                        + "  }\n"
                        + "}\n",
                Files.readString(user));

        assertEquals(
                ExitCodes.USAGE,
                cli.run("mcp", "add", "--sandbox", "--transport", "http", "docs", "http://127.0.0.1:1/mcp"));
        assertEquals(
                "dockhand: --sandbox is for servers Dockhand starts (stdio); an HTTP server runs wherever its URL"
                        + " points.",
                lastErr());
    }

    @Test
    void listShowsThatAServerRunsInTheSandboxAndWhyItDidNotStartWithoutOne() throws Exception {
        Path ran = temp.resolve("ran");
        Files.createDirectories(user.getParent());
        Files.writeString(
                user,
                "{\"mcpServers\": {\"box\": {\"command\": \"touch\", \"args\": [\"" + ran + "\"], \"sandbox\":"
                        + " true}}}");

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "mcp", "list"), cli.err::toString);

        assertEquals(
                "box  stdio (sandbox)  failed: did not start: it is set to run in the sandbox (\"sandbox\": true) and"
                        + " this session has no Docker sandbox (--sandbox none), so it was not started on this machine"
                        + " instead.\n",
                cli.out.toString());
        assertFalse(Files.exists(ran));
    }

    @Test
    @Tag("docker")
    void listStartsASandboxedServerInTheDockerSandbox() throws Exception {
        DockerRequired.check(cli.workspace, cli.variables);
        SandboxMcpScript.writeTo(cli.workspace);
        Files.createDirectories(user.getParent());
        Files.writeString(
                user,
                "{\"mcpServers\": {\"box\": {\"command\": \"python3\", \"args\": [\"server.py\"], \"sandbox\":"
                        + " true}}}");

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "docker", "mcp", "list"), cli.err::toString);

        assertEquals("box  stdio (sandbox)  connected, 1 tool\n", cli.out.toString());
    }
}
