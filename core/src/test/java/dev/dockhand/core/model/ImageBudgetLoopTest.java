package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.model.anthropic.AnthropicClient;
import dev.dockhand.core.model.gemini.GeminiClient;
import dev.dockhand.core.model.ollama.OllamaClient;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.model.responses.ResponsesClient;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session in which the model reads one large image a turn, through the agent loop and each provider's client: the
 * scripted model refuses every request its API would (21 images over 2000 px, more than 32 MB: see ImageRules), so a
 * loop that ends answered proves that every request stayed within the limits; and each request carries the newest
 * images, whole and in order, with a line for each older one.
 */
class ImageBudgetLoopTest {
    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();

    @AfterEach
    void stop() {
        server.close();
    }

    /** What one request carried: the indexes of the images in it, in order, and how many lines stood for others. */
    private record Carried(List<Integer> images, int leftOut) {}

    /** A wire: its client on the scripted server, a model of it that takes images, and its fixtures' folder. */
    private record Wire(String provider, String model, String framing, Function<ScriptedModel, ModelClient> client) {}

    private static final Wire ANTHROPIC = new Wire(
            "anthropic",
            "claude-sonnet-4-5",
            "text/event-stream",
            server -> new AnthropicClient(server.rootUrl(), "k", 4096, Timeouts.DEFAULT));
    private static final Wire OPENAI = new Wire(
            "openai",
            "gpt-4.1",
            "text/event-stream",
            server -> new OpenAiClient(server.baseUrl(), "k", Timeouts.DEFAULT));
    private static final Wire RESPONSES = new Wire(
            "openai-responses",
            "gpt-4.1",
            "text/event-stream",
            server -> new ResponsesClient(server.baseUrl(), "k", Timeouts.DEFAULT));
    private static final Wire GEMINI = new Wire(
            "gemini",
            "gemini-2.5-flash",
            "text/event-stream",
            server -> new GeminiClient(server.rootUrl(), "k", Timeouts.DEFAULT));
    private static final Wire OLLAMA = new Wire(
            "ollama", "gemma3", "application/x-ndjson", server -> new OllamaClient(server.rootUrl(), Timeouts.DEFAULT));

    /**
     * Twenty-five screenshots of 2500x1500 px, small in bytes: past twenty Anthropic would refuse the request for their
     * size, so from the 21st on it carries the newest, five fewer (the cut moves in steps of five, for the prompt
     * cache). The other APIs take all twenty-five.
     */
    @Test
    void twentyFiveScreenshotsReadOneATurnKeepEveryRequestWithinEachApisCount() throws Exception {
        List<Image> shots = images(25, 2500, 1500, 4_000);
        List<Integer> anthropic =
                new ArrayList<>(IntStream.rangeClosed(0, 20).boxed().toList());
        anthropic.addAll(List.of(16, 17, 18, 19, 20));
        List<Integer> all = IntStream.rangeClosed(0, 25).boxed().toList();

        assertEquals(anthropic, carried(ANTHROPIC, shots));
        assertEquals(all, carried(OPENAI, shots));
        assertEquals(all, carried(RESPONSES, shots));
        assertEquals(all, carried(GEMINI, shots));
        assertEquals(all, carried(OLLAMA, shots));
    }

    /**
     * The reviewer's case: PNGs of 3.5 MB (4.7 MB of base64), which together pass Anthropic's 32 MB from the seventh
     * on. Five fit the 24 MB of images a request carries; the sixth moves the cut by a step, and the request carries
     * only the newest until the next step fills up again.
     */
    @Test
    void largePngsReadOneATurnKeepEveryAnthropicRequestUnderThirtyTwoMegabytes() throws Exception {
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 1, 2), carried(ANTHROPIC, images(7, 1920, 1080, 3_500_000)));
    }

    /** Gemini takes inline data while the request is under 20 MB: seven images of 2 MB fit the 14 MB sent. */
    @Test
    void largePngsReadOneATurnKeepEveryGeminiRequestUnderTwentyMegabytes() throws Exception {
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 3, 4), carried(GEMINI, images(9, 1920, 1080, 1_500_000)));
    }

    private static List<Image> images(int count, int width, int height, int bytes) {
        List<Image> images = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            images.add(ToolImages.png(width, height, bytes, i));
        }
        return images;
    }

    /**
     * Runs one turn in which the model reads {@code shot-1.png} to {@code shot-N.png}, one a request, then answers;
     * checks that every request carried the newest images whole, in order, with a line for each older one, and
     * returns how many each carried.
     */
    private List<Integer> carried(Wire wire, List<Image> shots) throws Exception {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < shots.size(); i++) {
            index.put(shots.get(i).data(), i);
        }
        List<Carried> requests = new ArrayList<>();
        for (int n = 0; n <= shots.size(); n++) {
            int next = n + 1;
            boolean last = n == shots.size();
            server.reply(request -> {
                requests.add(carried(request, index));
                return last ? fixture(wire, "text", 0) : fixture(wire, "tool_call", next);
            });
        }
        // Each call takes away the request that asked for it, so the server does not keep every request's images.
        ToolRegistry registry = new ToolRegistry(List.of(new ReadImage(shots, server::takeRaw)));
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                new EventRecorder());
        AgentLoop loop = new AgentLoop(
                wire.client().apply(server),
                wire.model(),
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                shots.size() + 1,
                new EventRecorder());

        TurnResult result = loop.run("Look at the screenshots.", new Cancellation());
        server.takeRaw();

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome(), result.toString());
        List<Carried> expected = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (int n = 0; n < requests.size(); n++) {
            int count = requests.get(n).images().size();
            expected.add(new Carried(IntStream.range(n - count, n).boxed().toList(), n - count));
            counts.add(count);
        }
        assertEquals(expected, requests);
        return counts;
    }

    /** The images a request carries, known by their base64 text wherever the wire puts it, and the lines for others. */
    private static Carried carried(JsonNode request, Map<String, Integer> index) {
        List<Integer> images = new ArrayList<>();
        int[] leftOut = {0};
        walk(request, text -> {
            String data = text.startsWith("data:") ? text.substring(text.indexOf(',') + 1) : text;
            Integer image = index.get(data);
            if (image != null) {
                images.add(image);
            } else if (text.contains("left out of this request")) {
                leftOut[0] += text.split("left out of this request", -1).length - 1;
            }
        });
        return new Carried(images, leftOut[0]);
    }

    private static void walk(JsonNode node, java.util.function.Consumer<String> texts) {
        if (node.isTextual()) {
            texts.accept(node.asText());
        }
        node.forEach(child -> walk(child, texts));
    }

    /** The wire's fixture, its call reading {@code shot-N.png} under ids of its own (toolu_N, call_N, fc_N). */
    private static MockResponse fixture(Wire wire, String name, int n) {
        String extension = wire.framing().equals("application/x-ndjson") ? ".ndjson" : ".sse";
        String text = ProviderFixtures.text("/providers/" + wire.provider() + "/" + name + extension)
                .replace("README.md", "shot-" + n + ".png")
                .replace("toolu_1", "toolu_" + n)
                .replace("call_1", "call_" + n)
                .replace("fc_1", "fc_" + n);
        return new MockResponse().setHeader("Content-Type", wire.framing()).setBody(text);
    }

    /** A read_file whose files are the shots: {@code shot-N.png} answers with the Nth, as read_file reads an image. */
    private static final class ReadImage extends BaseTool<ReadImage.Params> {
        /** Its one argument. */
        record Params(String path) {}

        private final List<Image> shots;
        private final Runnable onCall;

        ReadImage(List<Image> shots, Runnable onCall) {
            super(
                    "read_file",
                    "Read a file.",
                    Schema.object().required("path", Schema.string("The file.")).build(),
                    ToolKind.READ,
                    Params.class);
            this.shots = shots;
            this.onCall = onCall;
        }

        @Override
        public String summarize(Params params) {
            return params.path();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            onCall.run();
            int n = Integer.parseInt(params.path().replaceAll("\\D", ""));
            Image image = shots.get(n - 1);
            return ToolResult.success(
                            params.path() + " is an image (" + image.mimeType() + ", " + image.size() + ").",
                            "read image")
                    .withImages(List.of(image));
        }
    }
}
