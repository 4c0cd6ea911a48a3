package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.toolCall;
import static dev.dockhand.core.testing.Sse.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ReasoningEffort;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --max-cost and the pricing and maxCost settings, played against the scripted model; --reasoning-effort. */
public class CostLimitTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        // gpt-4.1: $2 in, $8 out per million tokens.
        cli.variables.put("DOCKHAND_MODEL", "gpt-4.1");
        Files.writeString(cli.workspace.resolve("notes.txt"), "remember\n");
    }

    /** A reply asking for a write, reporting 100,000 tokens in and 10,000 out: $0.28 at gpt-4.1's price. */
    private void expensiveCall() {
        cli.model.enqueue(reply(
                toolCall("w1", "write_file", "{\"path\":\"out.txt\",\"content\":\"x\"}"),
                finish("tool_calls"),
                usage(100_000, 10_000),
                done()));
    }

    private void user(String json) throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), json);
    }

    private void project(String json) throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(cli.workspace.resolve(".dockhand/settings.json"), json);
    }

    @Test
    void passingMaxCostStopsTheRunBeforeTheNextRequestWithItsCallsAnswered() throws Exception {
        expensiveCall();

        assertEquals(ExitCodes.COST_LIMIT, cli.run("--yolo", "--max-cost", "0.25", "-p", "write it"));

        assertEquals(1, cli.model.requestCount());
        assertTrue(!Files.exists(cli.workspace.resolve("out.txt")));
        assertEquals(
                "dockhand: stopped after 1 model requests: the run has cost $0.28, past the --max-cost of $0.25.",
                cli.errLines().get(cli.errLines().size() - 1));
    }

    @Test
    void theJsonResultNamesTheCostLimitAndCarriesTheCost() throws Exception {
        expensiveCall();

        assertEquals(
                ExitCodes.COST_LIMIT,
                cli.run("--yolo", "--max-cost", "0.25", "--output-format", "json", "-p", "write it"));

        JsonNode result = Json.read(cli.out.toString());
        assertEquals("cost_limit", result.get("error").get("kind").asText());
        assertEquals(0.28, result.get("usage").get("cost_usd").asDouble(), 1e-9);
        assertEquals(
                Json.read("{\"id\":\"w1\",\"name\":\"write_file\",\"status\":\"error\",\"result\":\"The write_file call"
                        + " was not run: the run reached its spending limit and stopped.\",\"redacted\":0}"),
                stableCall(result.get("tool_calls").get(0)));
    }

    private static JsonNode stableCall(JsonNode call) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = call.deepCopy();
        copy.remove("duration_ms");
        copy.remove("arguments");
        return copy;
    }

    @Test
    void underTheLimitTheRunGoesOnAndAnswers() {
        expensiveCall();
        cli.model.enqueue(answer("Written."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "--max-cost", "1", "-p", "write it"));

        assertEquals(2, cli.model.requestCount());
    }

    @Test
    void maxCostForAModelWithoutAPriceIsRefusedBeforeAnythingIsSent() {
        cli.variables.put("DOCKHAND_MODEL", "my-local-model");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("--max-cost", "1", "-p", "x"));

        assertEquals(0, cli.model.requestCount());
        assertEquals(
                List.of("dockhand: --max-cost needs the price of my-local-model, which Dockhand's table does not know;"
                        + " add it under \"pricing\" in ~/.dockhand/settings.json."),
                cli.errLines());
    }

    @Test
    void theUsersPricingPricesAModelTheTableDoesNotKnow() throws Exception {
        cli.variables.put("DOCKHAND_MODEL", "my-local-model");
        user("{\"pricing\": {\"my-local-model\": {\"input\": 2, \"output\": 8}}}");
        expensiveCall();

        assertEquals(ExitCodes.COST_LIMIT, cli.run("--yolo", "--max-cost", "0.25", "-p", "write it"));
    }

    @Test
    void anUntrustedProjectCannotLowerPricesNorRaiseTheLimit() throws Exception {
        user("{\"maxCost\": 0.25}");
        project("{\"maxCost\": 100, \"pricing\": {\"gpt-4.1\": {\"input\": 0, \"output\": 0}}}");
        expensiveCall();

        assertEquals(ExitCodes.COST_LIMIT, cli.run("--yolo", "-p", "write it"));

        assertTrue(
                cli.errLines().get(0).contains("ignored pricing, maxCost:"),
                cli.errLines().get(0));
    }

    @Test
    void anUntrustedProjectCanLowerTheLimit() throws Exception {
        project("{\"maxCost\": 0.25}");
        expensiveCall();

        assertEquals(ExitCodes.COST_LIMIT, cli.run("--yolo", "-p", "write it"));
    }

    @Test
    void aTrustedProjectsPricingApplies() throws Exception {
        project("{\"pricing\": {\"gpt-4.1\": {\"input\": 0.1, \"output\": 0.1}}}");
        expensiveCall();
        cli.model.enqueue(answer("Written."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "--trust-project", "--max-cost", "0.25", "-p", "write it"));
    }

    @Test
    void aBadMaxCostOrPriceInTheSettingsNamesTheFile() throws Exception {
        Path settings = temp.resolve("home/settings.json");
        user("{\"maxCost\": -1}");
        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));
        assertEquals(
                List.of("dockhand: " + settings
                        + ": 'maxCost' must be a positive number of US dollars, like 0.5, not -1.0."),
                cli.errLines());

        cli.err.getBuffer().setLength(0);
        user("{\"pricing\": {\"m\": {\"input\": 1}}}");
        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));
        assertEquals(
                List.of("dockhand: " + settings + ": 'pricing' must give input and output for 'm'."), cli.errLines());
    }

    @Test
    void aZeroMaxCostIsAUsageError() {
        assertEquals(ExitCodes.USAGE, cli.run("--max-cost", "0", "-p", "x"));
        assertEquals(
                List.of("dockhand: --max-cost must be a positive number of US dollars, like 0.5."), cli.errLines());
    }

    @Test
    void anUntrustedProjectMayLowerTheReasoningEffortButNeverRaiseOrSetIt() throws Exception {
        project("{\"reasoningEffort\": \"high\"}");
        assertEquals(Optional.empty(), options().reasoningEffort());
        user("{\"reasoningEffort\": \"medium\"}");
        assertEquals(Optional.of(ReasoningEffort.MEDIUM), options().reasoningEffort());
        project("{\"reasoningEffort\": \"low\"}");
        assertEquals(Optional.of(ReasoningEffort.LOW), options().reasoningEffort());
    }

    @Test
    void reasoningEffortIsParsedFromTheOptionOrTheSettings() throws Exception {
        assertEquals(
                Optional.of(ReasoningEffort.HIGH),
                options("--reasoning-effort", "HIGH").reasoningEffort());
        assertEquals(Optional.empty(), options().reasoningEffort());
        user("{\"reasoningEffort\": \"low\"}");
        assertEquals(Optional.of(ReasoningEffort.LOW), options().reasoningEffort());
        assertEquals(OptionalDouble.empty(), options().maxCost());
    }

    @Test
    void aBadReasoningEffortIsAUsageError() {
        assertEquals(ExitCodes.USAGE, cli.run("--reasoning-effort", "extreme", "-p", "x"));
        assertEquals(
                List.of("dockhand: --reasoning-effort extreme is not a level; use low, medium or high."),
                cli.errLines());
    }

    /** The options a -p run would get from {@code args}. */
    private RunOptions options(String... args) {
        CliEnvironment environment = new CliEnvironment(
                Map.copyOf(cli.variables), cli.workspace, temp.resolve("home"), InputStream.nullInputStream(), true);
        CommandLine commandLine = CommandLineSpec.create(environment);
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("-p", "x"));
        commandLine.parseArgs(all.toArray(String[]::new));
        DockhandCommand command = commandLine.getCommand();
        command.configure();
        return RunOptions.from(command, environment);
    }
}
