package dev.dockhand.cli.headless;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The usage and cost in the JSON outputs, and the reasoning in stream-json, from the events a run emits. */
public class RunReportTest {
    private final AtomicReference<String> model = new AtomicReference<>("claude-haiku-4-5");
    private final CostMeter cost = new CostMeter(Pricing::builtIn, model::get);
    private final RunReport report = new RunReport(cost);
    private final StringWriter lines = new StringWriter();
    private final StreamJsonRenderer stream = new StreamJsonRenderer(new PrintWriter(lines), cost, report);

    private void emit(AgentEvent event) {
        cost.accept(event);
        report.accept(event);
        stream.accept(event);
    }

    @Test
    void theResultCountsCacheAndReasoningTokensAndWhatTheyCost() {
        emit(new AgentEvent.RequestStarted(1));
        emit(new AgentEvent.Usage(new TokenUsage(20_000, 1_000, 15_000, 4_000, 300), AgentEvent.Usage.Source.PROVIDER));
        emit(new AgentEvent.RequestStarted(2));
        emit(new AgentEvent.Usage(new TokenUsage(21_000, 200, 19_000, 0, 0), AgentEvent.Usage.Source.PROVIDER));

        JsonNode usage = report.result("s", "ok", 5, 0, null).get("usage");

        // claude-haiku-4-5: $1 in, $0.10 cache read, $1.25 cache write, $5 out per million. Request 1: 1000 × 1 +
        // 15000 × 0.10 + 4000 × 1.25 + 1000 × 5 = 12500 millionths; request 2: 2000 × 1 + 19000 × 0.10 + 200 × 5 =
        // 4900.
        assertEquals(
                Json.read(
                        """
                {"input_tokens":41000,"cached_input_tokens":34000,"cache_write_tokens":4000,"output_tokens":1200,
                 "reasoning_tokens":300,"estimated":false,"cost_usd":0.0174}
                """),
                withRoundedCost(usage));
    }

    @Test
    void theCostIsNullWhenTheModelHasNoPrice() {
        model.set("my-local-model");
        emit(new AgentEvent.RequestStarted(1));
        emit(new AgentEvent.Usage(new TokenUsage(100, 10), AgentEvent.Usage.Source.ESTIMATED));

        assertEquals(
                Json.read(
                        """
                {"input_tokens":100,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":10,
                 "reasoning_tokens":0,"estimated":true,"cost_usd":null}
                """),
                Json.read(Json.write(report.result("s", "ok", 5, 0, null).get("usage"))));
    }

    @Test
    void streamJsonCarriesTheReasoningAsThinkingAndEachRequestsCost() {
        model.set("deepseek-reasoner");
        emit(new AgentEvent.ReasoningDelta("Check the file "));
        emit(new AgentEvent.ReasoningDelta("first."));
        emit(new AgentEvent.TextDelta("Done."));
        emit(new AgentEvent.Usage(new TokenUsage(1_000_000, 100_000, 0, 0, 40_000), AgentEvent.Usage.Source.PROVIDER));

        // deepseek-reasoner: $0.28 in, $0.42 out per million: 0.28 + 0.042.
        assertEquals(
                List.of(
                        Json.read("{\"type\":\"thinking\",\"schema_version\":1,\"text\":\"Check the file \"}"),
                        Json.read("{\"type\":\"thinking\",\"schema_version\":1,\"text\":\"first.\"}"),
                        Json.read("{\"type\":\"text\",\"schema_version\":1,\"text\":\"Done.\"}"),
                        Json.read(
                                """
                        {"input_tokens":1000000,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":100000,
                         "reasoning_tokens":40000,"estimated":false,"cost_usd":0.322,"type":"usage","schema_version":1}
                        """)),
                lines.toString()
                        .lines()
                        .map(Json::read)
                        .map(RunReportTest::withRoundedCost)
                        .toList());
    }

    @Test
    void aCallsResultCutInsideAnEmojiKeepsWholeCharacters() {
        // U+1F600 straddles the 2,000-char cut.
        ToolResult result =
                ToolResult.success("x".repeat(RunReport.RESULT_CHARS - 1) + "\uD83D\uDE00 and more", "1 line");

        JsonNode node = RunReport.toolCall(new AgentEvent.ToolCallFinished(
                new ToolCall("c1", "read_file", "{}"), ToolCallStatus.SUCCESS, result, "a", Duration.ZERO));

        assertEquals(
                "x".repeat(RunReport.RESULT_CHARS - 1) + "…", node.get("result").asText());
    }

    /** The node with its cost rounded to a millionth of a dollar, so sums of binary fractions compare as written. */
    private static JsonNode withRoundedCost(JsonNode node) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = node.deepCopy();
        if (node.has("cost_usd") && node.get("cost_usd").isNumber()) {
            copy.put("cost_usd", Math.round(node.get("cost_usd").asDouble() * 1e6) / 1e6);
        }
        // As a reader sees it: written and read back, so numbers compare by value rather than by node type.
        return Json.read(Json.write(copy));
    }
}
