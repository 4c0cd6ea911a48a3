package dev.dockhand.cli;

import static dev.dockhand.core.testing.ScriptedModel.mentioning;
import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.text;
import static dev.dockhand.core.testing.Sse.toolCall;
import static dev.dockhand.core.testing.Sse.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.headless.RunLimits;
import dev.dockhand.cli.headless.SingleShot;
import dev.dockhand.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sub-agents in whole runs: the explore agent reading real files with its own requests, two at once; their events in
 * stream-json and their runs in the result; what the session keeps of them under each data policy, and resuming
 * it; agent files and the folder's trust; the run's limits counting their work.
 */
public class SubAgentRunTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(cli.workspace.resolve("alpha.txt"), "alpha lives here\n");
        Files.writeString(cli.workspace.resolve("beta.txt"), "beta lives here\n");
    }

    private static String agentCall(String type, String description, String prompt) {
        return Json.write(Json.object()
                .put("description", description)
                .put("prompt", prompt)
                .put("subagent_type", type));
    }

    /** The sub-agent whose task (its first message) is {@code prompt}. */
    private static java.util.function.Predicate<JsonNode> task(String prompt) {
        return request ->
                request.path("messages").path(1).path("content").asText().equals(prompt);
    }

    private static MockResponse answerWithUsage(String text, long in, long out) {
        return reply(text(text), finish("stop"), usage(in, out), done());
    }

    private List<JsonNode> lines() {
        return cli.out.toString().lines().map(Json::read).toList();
    }

    private static boolean met(CyclicBarrier barrier) {
        try {
            barrier.await(60, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void twoExploreAgentsReadFilesAtTheSameTimeAndTheirAnswersReachTheMainAgent() {
        cli.model.enqueue(calls(
                toolCall("m1", "agent", agentCall("explore", "find alpha", "Where does alpha live?")),
                toolCall("m2", "agent", agentCall("explore", "find beta", "Where does beta live?"))));
        cli.model.enqueue(answer("alpha.txt and beta.txt."));
        List<JsonNode> subRequests = new java.util.concurrent.CopyOnWriteArrayList<>();
        // Each agent's first reply waits until the other agent's first request arrived: proof they run together.
        CyclicBarrier both = new CyclicBarrier(2);
        for (String name : List.of("alpha", "beta")) {
            cli.model
                    .route(task("Where does " + name + " live?"))
                    .reply(request -> {
                        subRequests.add(request);
                        return met(both)
                                ? reply(
                                        toolCall(name + "-r", "read_file", "{\"path\":\"" + name + ".txt\"}"),
                                        finish("tool_calls"),
                                        usage(100, 10),
                                        done())
                                : answer("alone");
                    })
                    .reply(request -> {
                        subRequests.add(request);
                        return answerWithUsage(name + " lives in " + name + ".txt.", 100, 10);
                    });
        }

        assertEquals(ExitCodes.OK, cli.run("--output-format", "stream-json", "-p", "where do they live?"));

        // Each agent was offered only the read-only tools, and read its file with its own second request.
        for (JsonNode request : subRequests) {
            List<String> tools = new ArrayList<>();
            request.path("tools")
                    .forEach(
                            tool -> tools.add(tool.path("function").path("name").asText()));
            assertEquals(List.of("read_file", "list_directory", "glob", "grep"), tools);
        }
        List<String> readResults = subRequests.stream()
                .filter(request -> request.path("messages").size() == 4)
                .map(request -> request.path("messages").path(3).path("content").asText())
                .sorted()
                .toList();
        assertEquals(List.of("     1\talpha lives here\n", "     1\tbeta lives here\n"), readResults);
        JsonNode result = lines().get(lines().size() - 1);
        assertEquals("alpha.txt and beta.txt.", result.get("answer").asText());
        List<String> answers = new ArrayList<>();
        result.get("agents")
                .forEach(run -> answers.add(
                        run.get("name").asText() + ": " + run.get("answer").asText()
                                + " (" + run.get("turns").asInt() + " turns, "
                                + run.get("tool_calls").size() + " call, "
                                + run.get("usage").get("input_tokens").asLong() + " in)"));
        assertEquals(
                List.of(
                        "explore: alpha lives in alpha.txt. (2 turns, 1 call, 200 in)",
                        "explore: beta lives in beta.txt. (2 turns, 1 call, 200 in)"),
                answers.stream().sorted().toList());
        List<String> mainResults = new ArrayList<>();
        result.get("tool_calls")
                .forEach(call -> mainResults.add(call.get("id").asText() + " "
                        + call.get("result").asText().lines().findFirst().orElse("")));
        assertEquals(List.of("m1 alpha lives in alpha.txt.", "m2 beta lives in beta.txt."), mainResults);
        // The sub-agents' own lines carry their ids.
        List<String> nested = lines().stream()
                .filter(line -> line.has("agent"))
                .map(line -> line.get("type").asText())
                .distinct()
                .sorted()
                .toList();
        assertEquals(List.of("agent_result", "agent_start", "text", "tool_call", "tool_result", "usage"), nested);
    }

    private Path sessionFolder() throws Exception {
        try (Stream<Path> files = Files.list(temp.resolve("home/sessions"))) {
            return files.findFirst().orElseThrow();
        }
    }

    private List<JsonNode> records(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(Json::read).toList();
    }

    @Test
    void theSessionKeepsEachAgentsConversationAsItsPolicySaysAndResumesTheMainOne() throws Exception {
        Files.createDirectories(temp.resolve("home/agents"));
        Files.writeString(
                temp.resolve("home/agents/brief.md"),
                "---\nname: brief\ndescription: Answers in one line.\ntools: [grep]\ndata_policy: summary\n---\n"
                        + "You are brief.\n");
        cli.model.enqueue(calls(
                toolCall("m1", "agent", agentCall("explore", "look", "Look around.")),
                toolCall("m2", "agent", agentCall("brief", "sum up", "Sum up."))));
        cli.model.enqueue(answer("Both answered."));
        cli.model.route(mentioning("You are explore")).enqueue(answerWithUsage("Explored.", 50, 5));
        cli.model.route(mentioning("You are brief")).enqueue(answerWithUsage("Summed.", 40, 4));

        assertEquals(ExitCodes.OK, cli.run("-p", "go"));

        Path folder = sessionFolder();
        Path session;
        try (Stream<Path> files = Files.list(folder)) {
            session = files.filter(file -> file.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
        }
        String id = session.getFileName().toString().replace(".jsonl", "");
        List<String> subagents = records(session).stream()
                .filter(record -> record.path("type").asText().equals("subagent"))
                .map(record -> record.path("agent").asText() + " "
                        + record.path("data_policy").asText() + " "
                        + record.path("answer").asText() + " "
                        + record.path("transcript").asText("-"))
                .sorted()
                .toList();
        assertEquals(
                List.of("brief summary Summed. -", "explore full Explored. " + id + ".agents/explore-" + explored()),
                subagents);
        Path explore = folder.resolve(id + ".agents/explore-" + explored());
        assertEquals(
                List.of("session", "user", "usage", "assistant"),
                records(explore).stream()
                        .map(record -> record.path("type").asText())
                        .toList());
        try (Stream<Path> files = Files.list(folder.resolve(id + ".agents"))) {
            assertEquals(1, files.count());
        }

        cli.model.enqueue(answer("Still here."));
        assertEquals(ExitCodes.OK, cli.run("--resume", "latest", "-p", "again"));
        List<JsonNode> requests = new ArrayList<>();
        while (requests.size() < 5) {
            requests.add(cli.model.takeRequest());
        }
        JsonNode resumed = requests.get(4).get("messages");
        assertEquals(
                List.of("system", "user", "assistant", "tool", "tool", "assistant", "user"),
                stream(resumed).map(message -> message.path("role").asText()).toList());
    }

    /** explore-1 or explore-2: the two agents of the round run together, so either may start first. */
    private String explored() throws Exception {
        Path folder = sessionFolder();
        try (Stream<Path> files = Files.walk(folder)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("explore-"))
                    .findFirst()
                    .orElseThrow()
                    .substring("explore-".length());
        }
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items.stream();
    }

    @Test
    void aProjectsAgentsCountOnlyInATrustedFolderAndABadFileIsSaidAndSkipped() throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand/agents"));
        Files.writeString(
                cli.workspace.resolve(".dockhand/agents/local.md"),
                "---\nname: local\ndescription: The project's own.\n---\nYou are local.\n");
        Files.createDirectories(temp.resolve("home/agents"));
        Files.writeString(temp.resolve("home/agents/broken.md"), "no front matter here\n");
        cli.model.enqueue(answer("ok"), answer("ok"));

        assertEquals(ExitCodes.OK, cli.run("-p", "hi"));
        assertEquals(List.of("explore", "general"), agentsOffered(cli.model.takeRequest()));
        assertEquals(ExitCodes.OK, cli.run("--trust-project", "-p", "hi"));
        assertEquals(List.of("explore", "general", "local"), agentsOffered(cli.model.takeRequest()));

        assertEquals(
                "dockhand: skipped the agent file " + temp.resolve("home/agents/broken.md")
                        + ": it does not start with a --- line opening its YAML front matter.",
                cli.errLines().stream()
                        .filter(line -> line.contains("broken.md"))
                        .findFirst()
                        .orElseThrow());
    }

    private static List<String> agentsOffered(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("tools").forEach(tool -> {
            if (tool.path("function").path("name").asText().equals("agent")) {
                tool.path("function")
                        .path("parameters")
                        .path("properties")
                        .path("subagent_type")
                        .path("enum")
                        .forEach(name -> names.add(name.asText()));
            }
        });
        return names;
    }

    @Test
    void aSubAgentsCallsCountTowardMaxToolCalls() {
        cli.model.enqueue(calls(toolCall("m1", "agent", agentCall("explore", "look", "Look around."))));
        cli.model
                .route(mentioning("You are explore"))
                .enqueue(calls(
                        toolCall("e1", "read_file", "{\"path\":\"alpha.txt\"}"),
                        toolCall("e2", "read_file", "{\"path\":\"beta.txt\"}")));

        // The agent call is one, its sub-agent's first read the second, and its second read one too many.
        assertEquals(ExitCodes.TOOL_CALL_LIMIT, cli.run("--output-format", "json", "--max-tool-calls", "2", "-p", "x"));

        JsonNode result = lines().get(0);
        assertEquals("tool_call_limit", result.get("error").get("kind").asText());
        assertEquals("cancelled", result.get("agents").get(0).get("outcome").asText());
    }

    @Test
    void aSubAgentsCostCountsTowardMaxCost() {
        // gpt-4.1: $2 in per million tokens. The sub-agent's 100,000 tokens cost $0.20, past the limit of $0.10.
        cli.variables.put("DOCKHAND_MODEL", "gpt-4.1");
        cli.model.enqueue(reply(
                toolCall("m1", "agent", agentCall("explore", "look", "Look around.")),
                finish("tool_calls"),
                usage(10, 1),
                done()));
        cli.model
                .route(mentioning("You are explore"))
                .enqueue(reply(
                        toolCall("e1", "read_file", "{\"path\":\"alpha.txt\"}"),
                        finish("tool_calls"),
                        usage(100_000, 10),
                        done()));

        assertEquals(ExitCodes.COST_LIMIT, cli.run("--output-format", "json", "--max-cost", "0.10", "-p", "x"));

        JsonNode result = lines().get(0);
        assertEquals(
                List.of("budget_spent", "cost_limit"),
                List.of(
                        result.get("agents").get(0).get("outcome").asText(),
                        result.get("error").get("kind").asText()));
        assertEquals(2, cli.model.requestCount());
    }

    @Test
    void theWallTimeRunningOutWhileASubAgentWorksStopsItAnswersEveryCallAndListsItsRun() throws Exception {
        // The time runs out while the sub-agent's second request is out: the model holds its reply until then.
        AtomicReference<Runnable> timeUp = new AtomicReference<>();
        CountDownLatch runEnded = new CountDownLatch(1);
        SingleShot.wallTimer = (limit, expire) -> {
            timeUp.set(expire);
            return () -> {};
        };
        cli.model.enqueue(calls(toolCall("m1", "agent", agentCall("explore", "look", "Look around."))));
        cli.model
                .route(mentioning("You are explore"))
                .enqueue(calls(toolCall("e1", "read_file", "{\"path\":\"alpha.txt\"}")))
                .reply(request -> {
                    timeUp.get().run();
                    await(runEnded);
                    return answer("never read");
                });
        int exit;
        try {
            exit = cli.run("--output-format", "json", "--max-wall-time", "10m", "-p", "look around");
        } finally {
            runEnded.countDown();
            SingleShot.wallTimer = RunLimits.WallTimer.SYSTEM;
        }

        assertEquals(ExitCodes.WALL_TIME_LIMIT, exit);
        JsonNode result = lines().get(0);
        JsonNode run = result.get("agents").get(0);
        assertEquals(
                List.of("wall_time_limit", "explore", "cancelled", "2", "1"),
                List.of(
                        result.get("error").get("kind").asText(),
                        run.get("name").asText(),
                        run.get("outcome").asText(),
                        run.get("turns").asText(),
                        String.valueOf(run.get("tool_calls").size())));
        // Every call was answered: the resumed conversation is valid (the scripted model checks it) and holds the
        // agent call's answer.
        for (int i = 0; i < 3; i++) {
            cli.model.takeRequest();
        }
        cli.model.enqueue(answer("Resumed."));
        assertEquals(ExitCodes.OK, cli.run("--resume", "latest", "-p", "again"));
        JsonNode resumed = cli.model.takeRequest().get("messages");
        assertEquals(
                List.of("system", "user", "assistant", "tool", "user"),
                stream(resumed).map(message -> message.path("role").asText()).toList());
        assertEquals(
                "The user cancelled sub-agent explore-1 before it answered. Sub-agent explore-1 (explore) made 2 model"
                        + " requests and 1 tool call (read_file 1).",
                resumed.get(3).get("content").asText());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anAgentFileNamingAnotherProvidersModelIsSaidAtStartAndTheAgentIsStillOffered() throws Exception {
        cli.variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
        cli.variables.put("ANTHROPIC_BASE_URL", cli.model.baseUrl());
        Files.createDirectories(temp.resolve("home/agents"));
        Files.writeString(
                temp.resolve("home/agents/reviewer.md"),
                "---\nname: reviewer\ndescription: Reviews.\nmodel: gpt-4.1-mini\n---\nYou review.\n");
        cli.model.enqueue(dev.dockhand.core.testing.ProviderFixtures.stream("anthropic", "text"));

        assertEquals(
                ExitCodes.OK,
                cli.run("--provider", "anthropic", "--model", "claude-sonnet-4-5", "-p", "hi"),
                cli.err.toString());

        assertEquals(
                List.of("dockhand: the agent reviewer uses the session's model, not gpt-4.1-mini: it is OpenAI's model"
                        + " and the session's provider is Anthropic."),
                cli.errLines().stream()
                        .filter(line -> line.contains("reviewer"))
                        .toList());
        List<String> offered = new ArrayList<>();
        cli.model.takeRequest().path("tools").forEach(tool -> {
            if (tool.path("name").asText().equals("agent")) {
                tool.path("input_schema")
                        .path("properties")
                        .path("subagent_type")
                        .path("enum")
                        .forEach(name -> offered.add(name.asText()));
            }
        });
        assertEquals(List.of("explore", "general", "reviewer"), offered);
    }
}
