package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonTest {
    /** C1 controls a terminal acts on (CSI, OSC), DEL, a bidirectional override, a zero-width joiner, U+2028. */
    private static final String UNPRINTABLE = "a\u009B\",\"t\u009D]52;c;x\u0007\u007F\u202E\u200D\u2028\r\nb";

    @Test
    void printableJsonEscapesEveryCharacterThatDoesNotPrint() {
        assertEquals(
                "{\"text\":\"a\\u009B\\\",\\\"t\\u009D]52;c;x\\u0007\\u007F\\u202E\\u200D\\u2028\\r\\nb é ✓\"}",
                Json.writePrintable(Json.object().put("text", UNPRINTABLE + " é ✓")));
    }

    @Test
    void printableJsonReadsBackAsTheSameText() {
        String written = Json.writePrintable(Json.object().put("text", UNPRINTABLE));

        assertEquals(UNPRINTABLE, Json.read(written).get("text").asText());
    }
}
