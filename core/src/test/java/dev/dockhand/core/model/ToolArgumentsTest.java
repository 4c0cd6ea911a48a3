package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
    @Test
    void replaysArgumentsThatAreNotAJsonObjectAsEmptyObject() {
        assertEquals("{}", ToolArguments.replayable("{\"a\":"));
        assertEquals("{}", ToolArguments.replayable("[1]"));
        assertEquals("{}", ToolArguments.replayable(""));
        assertEquals("{\"a\":1}", ToolArguments.replayable("{\"a\":1}"));
    }
}
