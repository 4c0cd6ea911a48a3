package dev.dockhand.core.agent;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubAgentsTest {
    @TempDir
    Path workspace;

    @TempDir
    Path sessions;

    private final ScriptedModel model = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();
    private final TestTools.Echo readFile = new TestTools.Echo("read_file", ToolKind.READ);
    private final TestTools.Echo grep = new TestTools.Echo("grep", ToolKind.READ);
    private final TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
    private final TestTools.Blocking slow = new TestTools.Blocking("slow", ToolKind.EXECUTE);
    private final List<ApprovalRequest> asked = new CopyOnWriteArrayList<>();
    private SubAgents agents;
    /** The session's late tools (an MCP server's) as they are now. */
    private final AtomicReference<List<Tool<?>>> late = new AtomicReference<>(List.of());

    @AfterEach
    void stopServer() {
        model.close();
    }

    /** A main agent with read_file, grep, edit, slow and agent, over the built-in agents and {@code extra}. */
    private AgentLoop main(ApprovalMode mode, Approver approver, int maxTurns, AgentDefinition... extra) {
        List<AgentDefinition> definitions = new ArrayList<>(AgentDefinition.builtIns());
        definitions.addAll(List.of(extra));
        agents = new SubAgents(definitions);
        List<Tool<?>> tools = List.of(readFile, grep, edit, slow, agents.tool());
        ToolRegistry registry = new ToolRegistry(tools);
        registry.setLateTools(late::get);
        Approver recording = request -> {
            asked.add(request);
            return approver.decide(request);
        };
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                recording,
                mode,
                events);
        AgentLoop loop = new AgentLoop(
                OpenAiClient.create(model.baseUrl(), "sk-test"),
                "test-model",
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                maxTurns,
                events);
        agents.bind(new SubAgents.Binding(
                registry,
                scheduler,
                () -> loop,
                recording,
                events,
                (id, name) -> Optional.of(
                        Transcript.open(sessions.resolve("s1.agents").resolve(id + ".jsonl"), id, workspace, name)),
                workspace));
        return loop;
    }

    private AgentLoop main() {
        return main(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 20);
    }

    private static String agentCall(String type, String description, String prompt) {
        return Json.write(Json.object()
                .put("description", description)
                .put("prompt", prompt)
                .put("subagent_type", type));
    }

    private String instructions(String agent) {
        AgentDefinition definition = AgentDefinition.builtIns().stream()
                .filter(candidate -> candidate.name().equals(agent))
                .findFirst()
                .orElseThrow();
        return definition.systemPrompt() + "\n\nWorkspace: " + workspace
                + " (relative paths are relative to it; tools cannot reach outside it). Today is " + LocalDate.now()
                + ".";
    }

    private static List<String> toolNames(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("tools")
                .forEach(tool -> names.add(tool.path("function").path("name").asText()));
        return names;
    }

    /** The requests the model received, each recognised as the main agent's or a sub-agent's by its system prompt. */
    private List<JsonNode> requests(int count) {
        List<JsonNode> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(model.takeRequest());
        }
        return requests;
    }

    private static List<JsonNode> of(List<JsonNode> requests, String systemPromptStart) {
        return requests.stream()
                .filter(request -> request.path("messages")
                        .path(0)
                        .path("content")
                        .asText()
                        .startsWith(systemPromptStart))
                .toList();
    }

    @Test
    void exploreReadsWithItsOwnRequestsAndItsAnswerIsTheCallsResult() throws Exception {
        model.enqueue(calls(toolCall("m1", "agent", agentCall("explore", "find the parser", "Where is the parser?"))));
        model.enqueue(answer("It is in Parser.java."));
        model.route(mentioning("You are explore"))
                .enqueue(calls(toolCall("e1", "read_file", "{\"text\":\"Parser.java\"}")))
                .enqueue(answer("Parser.java holds the parser."));

        TurnResult result = main().run("find the parser", new Cancellation());

        assertEquals(
                List.of("ANSWERED", "It is in Parser.java.", "2"),
                List.of(result.outcome().name(), result.answer(), String.valueOf(result.requests())));
        List<JsonNode> requests = requests(4);
        List<JsonNode> explore = of(requests, "You are explore");
        assertEquals(2, explore.size());
        assertEquals(
                Json.read(Json.write(List.of(
                        Json.object().put("role", "system").put("content", instructions("explore")),
                        Json.object().put("role", "user").put("content", "Where is the parser?")))),
                explore.get(0).get("messages"));
        // Only the read-only tools the agent lists, of those the main agent has: never edit, slow or agent.
        assertEquals(List.of("read_file", "grep"), toolNames(explore.get(0)));
        assertEquals(List.of("Parser.java"), readFile.runs);
        JsonNode last = of(requests, "SYSTEM").get(1);
        assertEquals(
                Json.read(
                        """
                {"role":"tool","tool_call_id":"m1","content":"Parser.java holds the parser.\\n\\n[Sub-agent explore-1\
                 (explore) made 2 model requests and 1 tool call (read_file 1).]"}
                """),
                last.get("messages").get(3));
        assertEquals(
                List.of(new AgentEvent.SubAgentStarted("explore-1", "m1", "explore", "find the parser", "test-model")),
                events.ofType(AgentEvent.SubAgentStarted.class));
    }

    @Test
    void twoReadOnlySubAgentsOfOneRoundRunAtTheSameTime() throws Exception {
        model.enqueue(calls(
                toolCall("m1", "agent", agentCall("explore", "task A", "Look into task A.")),
                toolCall("m2", "agent", agentCall("explore", "task B", "Look into task B."))));
        model.enqueue(answer("Both done."));
        // Each sub-agent's first reply waits for the other's first request: only agents running together both get one.
        CyclicBarrier both = new CyclicBarrier(2);
        for (String task : List.of("A", "B")) {
            model.route(request -> request.path("messages")
                            .path(1)
                            .path("content")
                            .asText()
                            .equals("Look into task " + task + "."))
                    .reply(request -> answer(met(both) ? "met " + task : "alone " + task));
        }

        TurnResult result = main().run("two tasks", new Cancellation());

        assertEquals("Both done.", result.answer());
        List<String> answers = events.ofType(AgentEvent.SubAgentFinished.class).stream()
                .map(finished -> finished.run().answer())
                .sorted()
                .toList();
        assertEquals(List.of("met A", "met B"), answers);
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
    void aSubAgentsEditIsAskedNamingTheAgentAndADenialIsWhatItReads() throws Exception {
        model.enqueue(calls(toolCall("m1", "agent", agentCall("general", "fix the typo", "Fix the typo in a.txt."))));
        model.enqueue(answer("It could not."));
        model.route(mentioning("You are a general-purpose agent"))
                .enqueue(calls(toolCall("g1", "edit", "{\"text\":\"a.txt\"}")))
                .enqueue(answer("The edit was denied."));

        TurnResult result = main(ApprovalMode.DEFAULT, request -> ApprovalDecision.deniedByUser(""), 20)
                .run("fix it", new Cancellation());

        assertEquals("It could not.", result.answer());
        assertEquals(List.of(), edit.runs);
        assertEquals(
                List.of(Optional.of("general-1 (fix the typo)")),
                asked.stream().map(ApprovalRequest::agent).toList());
        List<JsonNode> general = of(requests(4), "You are a general-purpose agent");
        assertEquals(
                Json.read(
                        """
                {"role":"tool","tool_call_id":"g1","content":"The edit call was not run: the user denied it."}
                """),
                general.get(1).get("messages").get(3));
        // Depth 1: a sub-agent is never offered the agent tool.
        assertEquals(List.of("read_file", "grep", "edit", "slow"), toolNames(general.get(0)));
    }

    @Test
    void cancellingTheTurnStopsARunningSubAgentAndAnswersEveryCall() throws Exception {
        model.enqueue(calls(toolCall("m1", "agent", agentCall("general", "wait", "Run slow."))));
        model.route(mentioning("You are a general-purpose agent"))
                .enqueue(calls(toolCall("g1", "slow", "{\"text\":\"long\"}")));
        AgentLoop loop = main();
        Cancellation cancel = new Cancellation();

        CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> {
            try {
                return loop.run("start", cancel);
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(slow.started.await(60, TimeUnit.SECONDS));
        cancel.cancel();

        assertEquals(
                TurnResult.Outcome.CANCELLED, turn.get(60, TimeUnit.SECONDS).outcome());
        SubAgentRun run =
                events.ofType(AgentEvent.SubAgentFinished.class).get(0).run();
        assertEquals(List.of("cancelled", "1"), List.of(run.outcome(), String.valueOf(run.toolCalls())));
        model.enqueue(answer("fresh"));
        assertEquals("fresh", loop.run("next", new Cancellation()).answer());
        JsonNode next = of(requests(3), "SYSTEM").get(1);
        assertEquals(
                Json.read(
                        """
                {"role":"tool","tool_call_id":"m1","content":"The user cancelled sub-agent general-1 before it\
                 answered. Sub-agent general-1 (general) made 1 model request and 1 tool call (slow 1)."}
                """),
                next.get("messages").get(3));
    }

    @Test
    void aSubAgentsRequestsCountAgainstTheMainTurnLimit() throws Exception {
        model.enqueue(calls(toolCall("m1", "agent", agentCall("explore", "look", "Look around."))));
        model.route(mentioning("You are explore"))
                .enqueue(calls(toolCall("e1", "grep", "{\"text\":\"x\"}")))
                .enqueue(calls(toolCall("e2", "grep", "{\"text\":\"y\"}")))
                .enqueue(answer("never sent"));

        TurnResult result = main(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 3)
                .run("look", new Cancellation());

        assertEquals(TurnResult.Outcome.TURN_LIMIT, result.outcome());
        assertEquals(3, model.requestCount());
        assertEquals(
                List.of("turn_limit"),
                events.ofType(AgentEvent.SubAgentFinished.class).stream()
                        .map(finished -> finished.run().outcome())
                        .toList());
    }

    @Test
    void theFullPolicyKeepsTheSubAgentsConversationInATranscriptBesideTheSessions() throws Exception {
        model.enqueue(calls(toolCall("m1", "agent", agentCall("explore", "look", "Look around."))));
        model.enqueue(answer("Seen."));
        model.route(mentioning("You are explore")).enqueue(answer("Nothing there."));

        main().run("look", new Cancellation());

        SubAgentRun run =
                events.ofType(AgentEvent.SubAgentFinished.class).get(0).run();
        assertEquals(Optional.of("s1.agents/explore-1.jsonl"), run.transcript());
        Path file = sessions.resolve("s1.agents/explore-1.jsonl");
        assertEquals(
                List.of(
                        new dev.dockhand.core.conversation.Message.User("Look around."),
                        new dev.dockhand.core.conversation.Message.Assistant("Nothing there.", List.of())),
                Sessions.read(file).messages());
    }

    @Test
    void theSummaryAndNonePoliciesKeepNoConversation() throws Exception {
        // It may edit, so it runs alone, before the other: their ids follow the calls' order.
        AgentDefinition summary = new AgentDefinition(
                "brief",
                "Answers briefly.",
                Optional.of(List.of("edit")),
                Optional.empty(),
                5,
                DataPolicy.SUMMARY,
                "You are brief.",
                "test");
        AgentDefinition none = new AgentDefinition(
                "secret",
                "Leaves no trace.",
                Optional.of(List.of("grep")),
                Optional.empty(),
                5,
                DataPolicy.NONE,
                "You are secret.",
                "test");
        model.enqueue(calls(
                toolCall("m1", "agent", agentCall("brief", "one", "First.")),
                toolCall("m2", "agent", agentCall("secret", "two", "Second."))));
        model.enqueue(answer("Done."));
        model.route(mentioning("You are brief"))
                .enqueue(reply(text("Brief answer."), finish("stop"), usage(30, 5), done()));
        model.route(mentioning("You are secret")).enqueue(answer("Secret answer."));

        main(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 20, summary, none)
                .run("go", new Cancellation());

        assertEquals(false, Files.exists(sessions.resolve("s1.agents")));
        List<JsonNode> records = events.ofType(AgentEvent.SubAgentFinished.class).stream()
                .map(finished -> Json.read(Json.write(finished.run().record())))
                .toList();
        assertEquals(
                List.of(
                        Json.read(
                                """
                        {"type":"subagent","id":"brief-1","call_id":"m1","agent":"brief","data_policy":"summary",
                         "outcome":"answered","description":"one","model":"test-model","answer":"Brief answer.",
                         "requests":1,"tool_calls":0,"usage":{"input_tokens":30,"output_tokens":5,
                         "cached_input_tokens":0,"cache_write_tokens":0,"reasoning_tokens":0}}
                        """),
                        Json.read(
                                """
                        {"type":"subagent","id":"secret-2","call_id":"m2","agent":"secret","data_policy":"none",
                         "outcome":"answered"}
                        """)),
                records);
    }

    @Test
    void subAgentsAreOfferedMcpToolsThatJoinAfterTheyStartedAsTheirListAllows() throws Exception {
        AgentDefinition tracker = new AgentDefinition(
                "tracker",
                "Reads the tracker.",
                Optional.of(List.of("read_file", "mcp__tracker")),
                Optional.empty(),
                5,
                DataPolicy.FULL,
                "You are tracker.",
                "test");
        TestTools.Echo issue = new TestTools.Echo("mcp__tracker__issue", ToolKind.READ);
        TestTools.Echo other = new TestTools.Echo("mcp__other__note", ToolKind.READ);
        model.enqueue(calls(toolCall("m1", "agent", agentCall("general", "one", "First task."))));
        model.enqueue(calls(toolCall("m2", "agent", agentCall("tracker", "two", "Second task."))));
        model.enqueue(answer("Both done."));
        // The servers start while the general agent's first request is out: its next request offers their tools.
        model.route(mentioning("You are a general-purpose agent"))
                .reply(request -> {
                    late.set(List.of(issue, other));
                    return calls(toolCall("g1", "read_file", "{\"text\":\"a\"}"));
                })
                .enqueue(calls(toolCall("g2", "mcp__other__note", "{\"text\":\"n\"}")))
                .enqueue(answer("General done."));
        model.route(mentioning("You are tracker"))
                .enqueue(calls(toolCall("t1", "mcp__tracker__issue", "{\"text\":\"42\"}")))
                .enqueue(answer("Tracker done."));

        TurnResult result = main(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 20, tracker)
                .run("go", new Cancellation());

        assertEquals("Both done.", result.answer());
        List<JsonNode> requests = requests(8);
        assertEquals(
                List.of(
                        List.of("read_file", "grep", "edit", "slow"),
                        List.of("read_file", "grep", "edit", "slow", "mcp__tracker__issue", "mcp__other__note"),
                        List.of("read_file", "grep", "edit", "slow", "mcp__tracker__issue", "mcp__other__note")),
                of(requests, "You are a general-purpose agent").stream()
                        .map(SubAgentsTest::toolNames)
                        .toList());
        // mcp__tracker names every tool of that server, and no other server's.
        assertEquals(
                List.of(List.of("read_file", "mcp__tracker__issue"), List.of("read_file", "mcp__tracker__issue")),
                of(requests, "You are tracker").stream()
                        .map(SubAgentsTest::toolNames)
                        .toList());
        assertEquals(List.of(List.of("n"), List.of("42")), List.of(other.runs, issue.runs));
    }

    @Test
    void anAgentsModelOfTheSessionsProviderIsSentAndAnotherProvidersIsReplacedWithTheSessionsSaying() throws Exception {
        AgentDefinition cheap = new AgentDefinition(
                "cheap",
                "Answers cheaply.",
                Optional.of(List.of("grep")),
                Optional.of("gpt-4.1-mini"),
                5,
                DataPolicy.NONE,
                "You are cheap.",
                "test");
        AgentDefinition foreign = new AgentDefinition(
                "foreign",
                "Answers elsewhere.",
                Optional.of(List.of("grep")),
                Optional.of("claude-haiku-4-5"),
                5,
                DataPolicy.NONE,
                "You are foreign.",
                "test");
        model.enqueue(calls(
                toolCall("m1", "agent", agentCall("cheap", "one", "First.")),
                toolCall("m2", "agent", agentCall("foreign", "two", "Second."))));
        model.enqueue(answer("Done."));
        model.route(mentioning("You are cheap")).enqueue(answer("Cheap answer."));
        model.route(mentioning("You are foreign")).enqueue(answer("Foreign answer."));
        AgentLoop loop = main(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 20, cheap, foreign);
        agents.checkModels(name -> dev.dockhand.core.model.ModelFamilies.mismatch(
                dev.dockhand.core.model.Provider.OPENAI,
                dev.dockhand.core.model.Provider.OPENAI.defaultBaseUrl(),
                name));

        loop.run("go", new Cancellation());

        List<JsonNode> requests = requests(4);
        assertEquals(
                List.of("gpt-4.1-mini", "test-model"),
                List.of(
                        of(requests, "You are cheap").get(0).get("model").asText(),
                        of(requests, "You are foreign").get(0).get("model").asText()));
        assertEquals(
                List.of(new AgentEvent.Warning("the agent foreign uses the session's model, not claude-haiku-4-5: it is"
                        + " Anthropic's model and the session's provider is OpenAI.")),
                events.ofType(AgentEvent.Warning.class));
        assertEquals(
                List.of("cheap gpt-4.1-mini", "foreign test-model"),
                events.ofType(AgentEvent.SubAgentFinished.class).stream()
                        .map(finished ->
                                finished.run().agent() + " " + finished.run().model())
                        .sorted()
                        .toList());
    }
}
