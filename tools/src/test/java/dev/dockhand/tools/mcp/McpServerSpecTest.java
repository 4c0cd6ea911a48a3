package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.settings.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class McpServerSpecTest {
    private static final Map<String, String> ENVIRONMENT = Map.of("TOKEN", "t-1", "HOST", "docs.example");

    @Test
    void variablesExpandFromTheEnvironmentAndTheDefaultsFillIn() {
        Settings.McpServer entry = McpServerEntry.url("https://${HOST}/mcp")
                .headers(Map.of("Authorization", "Bearer ${TOKEN}${UNSET}"))
                .excludeTools(List.of("delete"))
                .settings();
        McpServerSpec spec = McpServerSpec.of("docs", entry, McpServerSpec.Origin.USER, ENVIRONMENT::get);
        assertEquals(
                new McpServerSpec(
                        "docs",
                        "http",
                        "",
                        List.of(),
                        Map.of(),
                        Optional.empty(),
                        "https://docs.example/mcp",
                        Map.of("Authorization", "Bearer t-1"),
                        List.of(),
                        List.of("delete"),
                        Duration.ofMinutes(10),
                        false,
                        false,
                        false,
                        McpServerSpec.Origin.USER),
                spec);
        assertEquals(List.of(true, false), List.of(spec.offers("search"), spec.offers("delete")));
    }

    @Test
    void anEntryWithNeitherCommandNorUrlIsRefusedInOneSentence() {
        Settings.McpServer empty = McpServerEntry.empty().settings();
        assertEquals(
                "the MCP server 'x' needs either a command or a url",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> McpServerSpec.of("x", empty, McpServerSpec.Origin.USER, ENVIRONMENT::get))
                        .getMessage());
    }

    @Test
    void sandboxTrueIsReadForACommandAndItsCwdStaysRelative() {
        Settings.McpServer entry = McpServerEntry.command("python3", List.of("server.py"))
                .env(Map.of("TOKEN", "${TOKEN}"))
                .cwd("tools")
                .sandbox(true)
                .settings();
        McpServerSpec spec = McpServerSpec.of("box", entry, McpServerSpec.Origin.USER, ENVIRONMENT::get);
        assertEquals(
                new McpServerSpec(
                        "box",
                        "stdio",
                        "python3",
                        List.of("server.py"),
                        Map.of("TOKEN", "t-1"),
                        Optional.of("tools"),
                        "",
                        Map.of(),
                        List.of(),
                        List.of(),
                        Duration.ofMinutes(10),
                        false,
                        false,
                        true,
                        McpServerSpec.Origin.USER),
                spec);
    }

    @Test
    void sandboxTrueOnAServerReachedAtAUrlIsRefusedInOneSentence() {
        Settings.McpServer remote =
                McpServerEntry.url("https://docs.example/mcp").sandbox(true).settings();
        assertEquals(
                "the MCP server 'docs' has \"sandbox\": true, which is for a server Dockhand starts (a command), not"
                        + " one reached at a url",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> McpServerSpec.of("docs", remote, McpServerSpec.Origin.USER, ENVIRONMENT::get))
                        .getMessage());
    }
}
