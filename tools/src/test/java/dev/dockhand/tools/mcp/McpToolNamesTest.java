package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

class McpToolNamesTest {
    @Test
    void charactersTheProvidersRefuseBecomeUnderscores() {
        assertEquals("mcp__my_server__get-sum_v2", McpToolNames.name("my server", "get-sum.v2", Set.of()));
    }

    @Test
    void longNamesAreCutTo64AndRepeatsNumbered() {
        String tool = "a".repeat(80);
        String first = McpToolNames.name("s", tool, Set.of());
        assertEquals("mcp__s__" + "a".repeat(56), first);
        assertEquals("mcp__s__" + "a".repeat(54) + "_2", McpToolNames.name("s", tool, Set.of(first)));
    }
}
