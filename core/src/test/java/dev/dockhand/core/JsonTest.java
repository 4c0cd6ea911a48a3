package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonTest {
    /**
     * C1 controls a terminal acts on (CSI, OSC), DEL, a bidirectional override, a zero-width joiner, U+2028, and a tag
     * character (U+E0041, past U+FFFF, which hides text).
     */
    private static final String UNPRINTABLE =
            "a\u009B\",\"t\u009D]52;c;x\u0007\u007F\u202E\u200D\u2028\r\nb\uDB40\uDC41";

    @Test
    void printableJsonEscapesEveryCharacterThatDoesNotPrint() {
        assertEquals(
                "{\"text\":\"a\\u009B\\\",\\\"t\\u009D]52;c;x\\u0007\\u007F\\u202E\\u200D\\u2028\\r\\nb"
                        + "\\uDB40\\uDC41 é ✓ \\uD83D\\uDE00\"}",
                Json.writePrintable(Json.object().put("text", UNPRINTABLE + " é ✓ 😀")));
    }

    @Test
    void printableJsonReadsBackAsTheSameText() {
        String written = Json.writePrintable(Json.object().put("text", UNPRINTABLE));

        assertEquals(UNPRINTABLE, Json.read(written).get("text").asText());
    }
}
