package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * MCP servers in a whole run: configured in the settings, their tools offered to the scripted model, called, and
 * their results sent back. The reference server {@code @modelcontextprotocol/server-everything} is used where it is
 * installed (.ci/run installs it in /opt/mcp-everything; DOCKHAND_MCP_EVERYTHING names another copy).
 */
class McpSessionTest extends CliTest {
    private static final Path EVERYTHING = Path.of(System.getenv()
            .getOrDefault("DOCKHAND_MCP_EVERYTHING", "/opt/mcp-everything/node_modules/.bin/mcp-server-everything"));

    @BeforeEach
    void open() throws Exception {
        Files.createDirectories(temp.resolve("home"));
    }

    private void user(String json) throws Exception {
        Files.writeString(temp.resolve("home/settings.json"), json);
    }

    private static void assumeEverythingServer() {
        Assumptions.assumeTrue(
                Files.isExecutable(EVERYTHING),
                "@modelcontextprotocol/server-everything is not installed at " + EVERYTHING
                        + " (npm install --prefix /opt/mcp-everything @modelcontextprotocol/server-everything)");
    }

    private static List<String> toolNames(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.get("tools")
                .forEach(tool -> names.add(tool.get("function").get("name").asText()));
        return names;
    }

    /** The tool messages of a request, each as its call id and content. */
    private static List<String> toolResults(JsonNode request) {
        List<String> results = new ArrayList<>();
        request.get("messages").forEach(message -> {
            if (message.get("role").asText().equals("tool")) {
                results.add(message.get("tool_call_id").asText() + ": "
                        + message.get("content").asText());
            }
        });
        return results;
    }

    @Test
    void theEverythingServersEchoAndGetSumRunAndTheirResultsReachTheModel() throws Exception {
        assumeEverythingServer();
        // Required: the first request waits for it, so its tools are in that request.
        user("{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"required\": true}}}");
        cli.model.enqueue(
                calls(
                        toolCall("e1", "mcp__everything__echo", "{\"message\":\"hello\"}"),
                        toolCall("s1", "mcp__everything__get-sum", "{\"a\":2,\"b\":3}")),
                answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--approval-mode", "yolo", "-p", "use the server"));

        JsonNode first = cli.model.takeRequest();
        List<String> offered = toolNames(first);
        assertEquals(
                List.of("mcp__everything__echo", "mcp__everything__get-sum"),
                offered.stream()
                        .filter(name -> name.equals("mcp__everything__echo") || name.equals("mcp__everything__get-sum"))
                        .toList());
        assertEquals(List.of("e1: Echo: hello", "s1: The sum of 2 and 3 is 5."), toolResults(cli.model.takeRequest()));
        assertEquals("Done.\n", cli.out.toString());
    }

    @Test
    void getTinyImagesImageReachesAVisionModelAsAnImageAndOthersAsADescription() throws Exception {
        assumeEverythingServer();
        user("{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"required\": true,"
                + " \"includeTools\": [\"get-tiny-image\"]}}}");
        cli.model.enqueue(
                calls(toolCall("i1", "mcp__everything__get-tiny-image", "{}")),
                answer("A logo."),
                calls(toolCall("i2", "mcp__everything__get-tiny-image", "{}")),
                answer("No picture."));
        String text = "Here's the image you requested:\nThe image above is the MCP logo.";

        assertEquals(ExitCodes.OK, cli.run("--model", "gpt-4o", "--approval-mode", "yolo", "-p", "look"));
        cli.model.takeRequest();
        JsonNode second = cli.model.takeRequest();
        JsonNode messages = second.get("messages");
        JsonNode carried = messages.get(messages.size() - 1);
        String url = carried.at("/content/1/image_url/url").asText();
        assertEquals(
                List.of(
                        "i1: " + text + "\n[image: image/png, 4 KB, follows the tool results]",
                        "user",
                        "Images returned by the mcp__everything__get-tiny-image call i1:",
                        // The server's PNG, whole, as a data URL.
                        "a0636f3a4db84acf2dc2a7dd8b208d3dc9498cea1e4a335f3f47f97abd751dd3"),
                List.of(
                        toolResults(second).get(0),
                        carried.get("role").asText(),
                        carried.at("/content/0/text").asText(),
                        new dev.dockhand.core.conversation.Image(
                                        "image/png", url.substring("data:image/png;base64,".length()))
                                .sha256()));
        assertEquals("data:image/png;base64,", url.substring(0, url.indexOf(',') + 1));

        assertEquals(ExitCodes.OK, cli.run("--approval-mode", "yolo", "-p", "look"));
        cli.model.takeRequest();
        assertEquals(
                List.of("i2: " + text + "\n[image: image/png, 4 KB, not shown: this model does not take images]"),
                toolResults(cli.model.takeRequest()));
    }

    @Test
    void anMcpCallTheUserDidNotApproveDoesNotRun() throws Exception {
        assumeEverythingServer();
        user("{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"includeTools\": [\"echo\"],"
                + " \"required\": true}}}");
        cli.model.enqueue(calls(toolCall("e1", "mcp__everything__echo", "{\"message\":\"hello\"}")), answer("Ok."));

        cli.run("-p", "use the server");

        JsonNode first = cli.model.takeRequest();
        assertEquals(
                List.of("mcp__everything__echo"),
                toolNames(first).stream()
                        .filter(name -> name.startsWith("mcp__"))
                        .toList());
        assertEquals(
                List.of("e1: The mcp__everything__echo call was not run: it needs the user's approval, and nobody can"
                        + " approve in this non-interactive run. The user can allow such calls by rerunning with --yolo"
                        + " or --allowed-tools mcp__everything__echo. Finish what you can without it and say what was"
                        + " not done."),
                toolResults(cli.model.takeRequest()));
    }

    @Test
    void aSlowServersToolsJoinFromTheNextRequestAndACallToItWaitsForIt() throws Exception {
        assumeEverythingServer();
        // The server starts only once the model has written the gate file: the first request cannot have its tools.
        // A server of the user's settings does not start in the workspace, so it names the gate by its full path.
        user("{\"mcpServers\": {\"slow\": {\"command\": \"sh\", \"args\": [\"-c\", \"while [ ! -f "
                + cli.workspace.resolve("gate") + " ]; do sleep 0.05; done; exec " + EVERYTHING + "\"],"
                + " \"includeTools\": [\"echo\"]}}}");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"gate\",\"content\":\"open\"}")),
                calls(toolCall("e1", "mcp__slow__echo", "{\"message\":\"late\"}")),
                answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--approval-mode", "yolo", "-p", "use the server"));

        List<String> mcp = List.of("mcp__slow__echo");
        assertEquals(
                List.of(),
                toolNames(cli.model.takeRequest()).stream()
                        .filter(mcp::contains)
                        .toList());
        cli.model.takeRequest();
        JsonNode third = cli.model.takeRequest();
        assertEquals(mcp, toolNames(third).stream().filter(mcp::contains).toList());
        assertEquals(List.of("w1: Created gate (1 line).", "e1: Echo: late"), toolResults(third));
    }

    @Test
    void streamJsonShowsTheServersStatusAndACallsProgress() throws Exception {
        assumeEverythingServer();
        user("{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"required\": true,"
                + " \"includeTools\": [\"trigger-long-running-operation\"]}}}");
        cli.model.enqueue(
                calls(toolCall(
                        "p1", "mcp__everything__trigger-long-running-operation", "{\"duration\":0.2,\"steps\":2}")),
                answer("Done."));

        assertEquals(
                ExitCodes.OK,
                cli.run("--approval-mode", "yolo", "--output-format", "stream-json", "-p", "use the server"));

        List<String> lines = cli.out
                .toString()
                .lines()
                .filter(line -> line.contains("\"mcp_server\"") || line.contains("\"tool_progress\""))
                .map(line -> line.replaceAll(",\"tools\":[0-9]+", ""))
                .distinct()
                .toList();
        assertEquals(
                List.of(
                        "{\"type\":\"mcp_server\",\"schema_version\":1,\"name\":\"everything\",\"status\":\"connected\"}",
                        "{\"type\":\"tool_progress\",\"schema_version\":1,\"id\":\"p1\",\"progress\":1.0,\"total\":2.0}",
                        "{\"type\":\"tool_progress\",\"schema_version\":1,\"id\":\"p1\",\"progress\":2.0,\"total\":2.0}"),
                lines.stream().filter(line -> !line.contains("tools_changed")).toList());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"streamableHttp, http, /mcp", "sse, sse, /sse"})
    void anHttpServerIsReachedOverStreamableHttpAndTheOlderSse(String mode, String type, String path) throws Exception {
        assumeEverythingServer();
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(EVERYTHING.toString(), mode).redirectErrorStream(true);
        builder.environment().put("PORT", Integer.toString(port));
        builder.redirectOutput(temp.resolve("server.log").toFile());
        Process server = builder.start();
        try {
            awaitPort(port);
            user("{\"mcpServers\": {\"web\": {\"type\": \"" + type + "\", \"url\": \"http://127.0.0.1:" + port + path
                    + "\", \"required\": true, \"includeTools\": [\"echo\"]}}}");
            cli.model.enqueue(
                    calls(toolCall("e1", "mcp__web__echo", "{\"message\":\"over " + type + "\"}")), answer("Ok."));

            assertEquals(ExitCodes.OK, cli.run("--approval-mode", "yolo", "-p", "use the server"), cli.err::toString);

            cli.model.takeRequest();
            assertEquals(List.of("e1: Echo: over " + type), toolResults(cli.model.takeRequest()));
        } finally {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        }
    }

    /** Waits (at most 30 s) until the server listens: starting Node takes a moment, and nothing says when. */
    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("the server did not listen on port " + port + " within 30 s");
    }

    @Test
    void slashMcpShowsEachServerWithItsToolsAndTheirDescriptions() throws Exception {
        assumeEverythingServer();
        user("{\"mcpServers\": {\"everything\": {\"command\": \"" + EVERYTHING + "\", \"required\": true,"
                + " \"includeTools\": [\"echo\", \"get-sum\"]}, \"gone\": {\"command\":"
                + " \"no-such-mcp-server\"}}}");
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/mcp");
            repl.await("Returns the sum");
            repl.awaitPrompt();

            assertEquals(
                    List.of(
                            "› /mcp",
                            "everything  stdio  connected, 2 tools",
                            "  mcp__everything__echo     Echoes back the input string",
                            "  mcp__everything__get-sum  Returns the sum of two numbers",
                            "gone        stdio  failed: did not start: there is no program no-such-mcp-server."),
                    repl.rowsFrom("› /mcp").subList(0, 5));
        }
    }

    @Test
    void aRequiredServerThatFailsStopsTheRun() throws Exception {
        user("{\"mcpServers\": {\"gone\": {\"command\": \"" + temp.resolve("no-such-server") + "\", \"required\":"
                + " true}}}");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "hi"));
        assertEquals(
                "dockhand: The required MCP server 'gone' did not start: there is no program "
                        + temp.resolve("no-such-server") + ".",
                cli.err.toString().lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void aProjectsServersStartOnlyInATrustedFolder() throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(
                cli.workspace.resolve(".dockhand/settings.json"),
                "{\"mcpServers\": {\"project\": {\"command\": \"" + temp.resolve("no-such-server") + "\"}}}");
        cli.model.enqueue(answer("a"), answer("b"));

        assertEquals(ExitCodes.OK, cli.run("-p", "hi"));
        String untrusted = cli.err.toString();
        assertEquals(
                List.of("dockhand: " + cli.workspace.resolve(".dockhand/settings.json") + ": ignored mcpServers: this"
                        + " folder is not trusted, and they would widen what runs or where data goes; trust it with"
                        + " 'dockhand trust' (or --trust-project for one run)."),
                untrusted
                        .lines()
                        .filter(line -> line.contains("mcpServers") || line.contains("MCP"))
                        .toList());

        assertEquals(ExitCodes.OK, cli.run("--trust-project", "-p", "hi"));
        List<String> trusted = cli.err
                .toString()
                .substring(untrusted.length())
                .lines()
                .filter(line -> line.contains("MCP"))
                .map(line -> line.substring(0, line.indexOf("did not start") + "did not start".length()))
                .toList();
        assertEquals(List.of("dockhand: the MCP server 'project' did not start"), trusted);
    }

    @Test
    void mcpConfigAddsServersForOneRunAndAMissingFileStopsIt() throws Exception {
        Path file = temp.resolve("servers.json");
        Files.writeString(
                file, "{\"mcpServers\": {\"extra\": {\"command\": \"" + temp.resolve("no-such-server") + "\"}}}");
        cli.model.enqueue(answer("a"));

        assertEquals(ExitCodes.OK, cli.run("--mcp-config", file.toString(), "-p", "hi"));
        assertEquals(
                List.of("dockhand: the MCP server 'extra' did not start"),
                cli.err
                        .toString()
                        .lines()
                        .filter(line -> line.contains("MCP"))
                        .map(line -> line.substring(0, line.indexOf("did not start") + "did not start".length()))
                        .toList());

        assertEquals(
                ExitCodes.CONFIGURATION,
                cli.run("--mcp-config", temp.resolve("gone.json").toString(), "-p", "hi"));
        assertEquals(
                "dockhand: --mcp-config: there is no file " + temp.resolve("gone.json") + ".",
                cli.err.toString().lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void aSandboxedServerIsLeftOutWithItsReasonWhenCommandsRunOnThisMachine() throws Exception {
        Path ran = temp.resolve("ran");
        user("{\"mcpServers\": {\"box\": {\"command\": \"touch\", \"args\": [\"" + ran + "\"], \"sandbox\": true}}}");
        cli.model.enqueue(answer("Ok."));

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "-p", "hi"));

        assertEquals(
                List.of(
                        "dockhand: --sandbox none: commands run directly on this machine, unconfined.",
                        "dockhand: the MCP server 'box' did not start: it is set to run in the sandbox (\"sandbox\":"
                                + " true) and this session has no Docker sandbox (--sandbox none), so it was not"
                                + " started on this machine instead."),
                cli.errLines());
        assertFalse(Files.exists(ran));
    }

    @Test
    @Tag("docker")
    void aRequiredSandboxedServersToolRunsInTheContainerAndItsResultReachesTheModel() throws Exception {
        DockerRequired.check(cli.workspace, cli.variables);
        SandboxMcpScript.writeTo(cli.workspace);
        // Required: the run waits for it, which it can only do once the sandbox it runs in has opened.
        user("{\"mcpServers\": {\"box\": {\"command\": \"python3\", \"args\": [\"server.py\"], \"sandbox\": true,"
                + " \"required\": true}}}");
        cli.model.enqueue(calls(toolCall("h1", "mcp__box__hello", "{}")), answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "docker", "--approval-mode", "yolo", "-p", "say hello"));

        assertEquals(
                List.of("mcp__box__hello"),
                toolNames(cli.model.takeRequest()).stream()
                        .filter(name -> name.startsWith("mcp__"))
                        .toList());
        assertEquals(List.of("h1: hello from a container"), toolResults(cli.model.takeRequest()));
    }
}
