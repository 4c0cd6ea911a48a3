package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import dev.dockhand.core.testing.ProviderFixtures;
import java.io.IOException;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The usage and cost a run reports, from the provider's own stream through the reader to the JSON result: the fixture
 * follows Claude Code's recorded Sonnet traffic (see core's providers/SOURCES.md, sonnet4_thinking_bash_cached), a
 * prompt of 48,701 tokens almost all read from the cache, which the result must not report as 9.
 */
public class RecordedUsageTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        cli.variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
        cli.variables.put("ANTHROPIC_BASE_URL", cli.model.baseUrl());
    }

    private static MockResponse fixture(String name) throws IOException {
        return ProviderFixtures.stream("anthropic", name);
    }

    @Test
    void theJsonResultCountsCachedInputAsBilledAndPricesIt() throws Exception {
        cli.model.enqueue(fixture("sonnet4_thinking_bash_cached"), fixture("text"));

        int exit = cli.run(
                "--provider",
                "anthropic",
                "--model",
                "claude-sonnet-4-5",
                "--yolo",
                "--output-format",
                "json",
                "-p",
                "what is in this folder?");

        assertEquals(ExitCodes.OK, exit, cli.err.toString());
        JsonNode usage = Json.read(cli.out.toString()).get("usage");
        // Request 1: 9 uncached + 790 written + 47,902 read, 142 out; request 2: 10 in, 5 out.
        long uncached = 9 + 10;
        double cost = (uncached * 3.00 + 47_902 * 0.30 + 790 * 3.75 + (142 + 5) * 15.00) / 1_000_000;
        assertEquals(
                Json.read(
                        """
                        {"input_tokens":48711,"output_tokens":147,"cached_input_tokens":47902,
                         "cache_write_tokens":790,"reasoning_tokens":0,"estimated":false}
                        """),
                withoutCost(usage));
        assertEquals(cost, usage.get("cost_usd").asDouble(), 1e-9);
        cli.model.assertNoViolations();
    }

    private static JsonNode withoutCost(JsonNode usage) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = usage.deepCopy();
        copy.remove("cost_usd");
        return copy;
    }
}
