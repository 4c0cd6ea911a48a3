package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.RetryPolicy;
import dev.dockhand.core.model.RetryingModelClient;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An organization OpenAI has not verified gets no reasoning summaries: its request for one is answered with a 400
 * naming {@code reasoning.summary} (the body as continuedev/continue#9602 and #12031 quote it). The request goes again
 * at once without it, the rest of the session asks for none, and the user is told once.
 */
class ResponsesSummariesRefusedTest {
    private static final String NOT_VERIFIED = "Your organization must be verified to generate reasoning summaries."
            + " Please go to: https://platform.openai.com/settings/organization/general and click on Verify"
            + " Organization. If you just verified, it can take up to 15 minutes for access to propagate.";

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();

    @AfterEach
    void stop() {
        server.close();
    }

    private static MockResponse refused(String param) {
        return new MockResponse()
                .setResponseCode(400)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"error\":{\"message\":"
                        + Json.write(Json.MAPPER.getNodeFactory().textNode(NOT_VERIFIED))
                        + ",\"type\":\"invalid_request_error\",\"param\":\"" + param
                        + "\",\"code\":\"unsupported_value\"}}");
    }

    private ModelClient client() {
        return new RetryingModelClient(
                new ResponsesClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT),
                RetryPolicy.of(3, java.time.Duration.ofSeconds(1)),
                (delay, cancel) -> true);
    }

    @Test
    void theRefusedRequestIsSentOnceMoreWithoutTheSummaryAndNoLaterOneAsksForIt() throws Exception {
        server.enqueue(
                refused("reasoning.summary"),
                ProviderFixtures.stream("openai-responses", "text"),
                ProviderFixtures.stream("openai-responses", "text"));
        EventRecorder events = new EventRecorder();
        ToolRegistry registry = new ToolRegistry(List.of());
        AgentLoop loop = new AgentLoop(
                client(),
                "gpt-5",
                registry.declarations(),
                new CoreToolScheduler(
                        registry,
                        TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                        request -> ApprovalDecision.allowOnce(),
                        ApprovalMode.DEFAULT,
                        events),
                new Conversation("SYSTEM"),
                10,
                events);

        List<TurnResult.Outcome> outcomes = List.of(
                loop.run("hi", new Cancellation()).outcome(),
                loop.run("again", new Cancellation()).outcome());

        List<JsonNode> reasoning = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            reasoning.add(server.takeJson().get("reasoning"));
        }
        assertEquals(
                List.of(
                        List.of(TurnResult.Outcome.ANSWERED, TurnResult.Outcome.ANSWERED),
                        3,
                        java.util.Arrays.asList(Json.read("{\"summary\":\"auto\"}"), null, null),
                        List.of(new AgentEvent.Warning("OpenAI refused reasoning summaries (\"Your organization must be"
                                + " verified to generate reasoning summaries. Please go to:"
                                + " https://platform.openai.com/settings/organization/general and click on Verify"
                                + " Organization. If you just verified, it c…\"); the rest of this session asks for none,"
                                + " so the model's reasoning is not shown."))),
                List.of(outcomes, server.requestCount(), reasoning, events.ofType(AgentEvent.Warning.class)));
    }

    /** The request without the summary is sent once: a second refusal fails the request like any 400. */
    @Test
    void theRequestIsSentWithoutTheSummaryOnlyOnce() {
        server.enqueue(refused("reasoning.summary"), refused("reasoning.summary"));
        List<String> warnings = new ArrayList<>();

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> client().stream(
                        new ModelRequest("o3", List.of(new Message.User("hi")), List.of()),
                        new ModelClient.StreamListener() {
                            @Override
                            public void onTextDelta(String text) {}

                            @Override
                            public void onWarning(String message) {
                                warnings.add(message);
                            }
                        },
                        new Cancellation()));

        assertEquals(
                List.of(400, 2, java.util.Arrays.asList(Json.read("{\"summary\":\"auto\"}"), null), 1),
                List.of(
                        failure.httpStatus(),
                        server.requestCount(),
                        java.util.Arrays.asList(
                                server.takeJson().get("reasoning"),
                                server.takeJson().get("reasoning")),
                        warnings.size()));
    }

    /** A 400 that names another field is the request's own fault: it fails as it is, and summaries stay asked for. */
    @Test
    void aRefusalOfAnotherFieldIsNotRetried() {
        server.enqueue(refused("input"));

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> client().stream(
                        new ModelRequest("o3", List.of(new Message.User("hi")), List.of()),
                        text -> {},
                        new Cancellation()));

        assertEquals(
                List.of(400, java.util.Optional.of("input"), 1),
                List.of(failure.httpStatus(), failure.param(), server.requestCount()));
    }
}
