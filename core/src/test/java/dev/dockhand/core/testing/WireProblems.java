package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one request breaks of its wire format's rules, each problem a sentence in the style of that API's 400 message
 * (written here, not copied), found by the format's rules class.
 */
final class WireProblems {
    /** The tool-name pattern OpenAI documents for functions; Gemini's is the same set of characters. */
    static final Pattern FUNCTION_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private final List<String> problems = new ArrayList<>();

    void add(String problem) {
        problems.add(problem);
    }

    /** Adds {@code problem} unless {@code holds}. */
    void require(boolean holds, String problem) {
        if (!holds) {
            problems.add(problem);
        }
    }

    List<String> list() {
        return List.copyOf(problems);
    }

    static boolean isText(JsonNode node) {
        return node != null && node.isTextual();
    }

    static boolean isNonEmptyText(JsonNode node) {
        return isText(node) && !node.asText().isEmpty();
    }

    static boolean isObject(JsonNode node) {
        return node != null && node.isObject();
    }

    static boolean isNonEmptyArray(JsonNode node) {
        return node != null && node.isArray() && !node.isEmpty();
    }

    /** A field's value for a message, cut so a problem quoting it stays one line. */
    static String quote(JsonNode node) {
        String text = String.valueOf(node);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    /** Where in {@code node} (a JSON pointer) a string or a name holds a surrogate without its partner, if anywhere. */
    static Optional<String> loneSurrogate(JsonNode node, String at) {
        if (node.isTextual()) {
            return hasLoneSurrogate(node.textValue()) ? Optional.of(at) : Optional.empty();
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String inner = at + "/" + field.getKey();
                if (hasLoneSurrogate(field.getKey())) {
                    return Optional.of(inner);
                }
                Optional<String> found = loneSurrogate(field.getValue(), inner);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> found = loneSurrogate(node.get(i), at + "/" + i);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** Written apart from the code under test's own repair, so the check does not share its mistakes. */
    static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
