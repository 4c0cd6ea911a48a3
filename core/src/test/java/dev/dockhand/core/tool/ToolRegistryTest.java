package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.testing.TestTools;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {
    @Test
    void refusesTwoToolsWithOneName() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> new ToolRegistry(
                        List.of(new TestTools.Echo("echo", ToolKind.READ), new TestTools.Echo("echo", ToolKind.EDIT))));

        assertEquals(
                "two tools are named echo: dev.dockhand.core.testing.TestTools$Echo and"
                        + " dev.dockhand.core.testing.TestTools$Echo",
                refused.getMessage());
    }

    @Test
    void keepsTheOrderToolsWereGivenIn() {
        ToolRegistry registry = new ToolRegistry(
                List.of(new TestTools.Echo("b", ToolKind.READ), new TestTools.Echo("a", ToolKind.READ)));

        assertEquals(List.of("b", "a"), registry.names());
        assertEquals(
                List.of("b", "a"),
                registry.declarations().stream().map(d -> d.name()).toList());
    }
}
