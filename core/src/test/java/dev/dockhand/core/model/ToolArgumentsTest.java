package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
    @Test
    void replaysArgumentsThatAreNotAJsonObjectAsEmptyObject() {
        assertEquals("{}", ToolArguments.replayable("{\"a\":"));
        assertEquals("{}", ToolArguments.replayable("[1]"));
        assertEquals("{}", ToolArguments.replayable(""));
        assertEquals("{\"a\":1}", ToolArguments.replayable("{\"a\":1}"));
    }

    @Test
    void argumentsThatEscapeHalfACharacterGoBackWithTheReplacementCharacter() {
        // As a model may write them: the escape of an emoji's first half alone, in a value and in a name.
        String arguments = "{\"text\":\"cut \\ud83d here\",\"\\udc00\":[\"\\ud83d\\ude00 whole\"]}";

        assertEquals(
                "{\"text\":\"cut \uFFFD here\",\"\uFFFD\":[\"\uD83D\uDE00 whole\"]}",
                ToolArguments.replayable(arguments));
        assertEquals(
                "{\"text\":\"cut \uFFFD here\",\"\uFFFD\":[\"\uD83D\uDE00 whole\"]}",
                Json.write(ToolArguments.asObject(arguments)));
    }

    @Test
    void wellFormedArgumentsGoBackAsTheModelWroteThem() {
        String arguments = "{ \"text\" : \"\\ud83d\\ude00\" }";
        assertEquals(arguments, ToolArguments.replayable(arguments));
    }
}
