package dev.dockhand.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Locale;

/** The one shared, configured Jackson mapper; creating mappers is costly at start-up, so there is only this one. */
public final class Json {
    public static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    /** {@link #MAPPER}'s writer with {@link PrintableEscapes}; see {@link #writePrintable}. */
    private static final ObjectWriter PRINTABLE = MAPPER.writer(new PrintableEscapes());

    private Json() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Serialises a value that is known to be serialisable (our own nodes and records). */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Serialises as {@link #write} does, with every character that does not print written as JSON's six-character escape: the
     * C0 controls (as JSON requires), DEL, the C1 controls, format characters (bidirectional overrides, zero-width
     * characters), the line and paragraph separators, and every character past U+FFFF (as its two halves). JSON leaves all but C0 raw, and a terminal, or a filter made
     * for one, acts on a raw U+009B (a CSI) or U+009D (an OSC) in a string; escaped, they reach a parser whole and
     * nothing else. For JSON written where a terminal or a line-based reader may see it: stdout.
     */
    public static String writePrintable(Object value) {
        try {
            return PRINTABLE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The escapes of {@link #writePrintable}. */
    private static final class PrintableEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;

        private final int[] ascii;

        PrintableEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii[0x7F] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return switch (Character.getType(ch)) {
                    // A surrogate is half of a character past U+FFFF; Jackson hands over one half at a time, so whether
                    // the
                    // character prints (an emoji) or not (a tag character, which hides text) cannot be told: both
                    // halves
                    // are escaped, and a parser joins them back into the character.
                case Character.CONTROL,
                        Character.FORMAT,
                        Character.LINE_SEPARATOR,
                        Character.PARAGRAPH_SEPARATOR,
                        Character.SURROGATE -> new SerializedString(String.format(Locale.ROOT, "\\u%04X", ch));
                default -> null;
            };
        }
    }

    /** Serialises, as {@link #write} does, to UTF-8. */
    public static byte[] writeBytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses text that is known to be JSON (our own fixtures and files); model output goes through the scheduler. */
    public static JsonNode read(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
