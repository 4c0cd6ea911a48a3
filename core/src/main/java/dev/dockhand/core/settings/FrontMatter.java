package dev.dockhand.core.settings;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown file's YAML front matter and the text after it, as custom commands and agent definitions are written:
 *
 * <pre>
 * ---
 * description: Review a file
 * allowed-tools: read_file, grep
 * ---
 * Review $1 for …
 * </pre>
 *
 * A file that does not begin with a {@code ---} line has no front matter: all of it is the body. The files come from
 * repositories the user cloned, so nothing in them is trusted: the YAML is read as data only (no tags make objects),
 * a key given twice is an error rather than a silent last-one-wins, and a value of the wrong shape is an error that
 * names the key. Keys nobody asks for are ignored, so files written for other tools load too.
 */
public record FrontMatter(ObjectNode fields, String body) {
    private static final String FENCE = "---";

    /** A top-level {@code key: value} line. */
    private static final Pattern KEY_VALUE = Pattern.compile("([A-Za-z0-9_-]+):[ \t]*(.*)");

    /** Built on first use: most runs read no front matter, and a YAML mapper costs start-up time. */
    private static final class Yaml {
        static final ObjectMapper MAPPER = YAMLMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .build();

        private Yaml() {}
    }

    /**
     * Splits {@code text} into its front matter and body. Line endings may be {@code \n} or {@code \r\n}; a leading
     * byte-order mark is dropped. The body starts on the line after the closing {@code ---}.
     *
     * @throws FrontMatterException when the front matter is never closed, is not YAML, or is not a mapping of keys
     */
    public static FrontMatter parse(String text) throws FrontMatterException {
        return parse(text, Set.of());
    }

    /**
     * As {@link #parse(String)}, with the one-line values of the keys in {@code verbatim} taken as written rather
     * than as YAML: {@code argument-hint: [FILE] [FOCUS]} is the text {@code [FILE] [FOCUS]}, as Claude Code's command
     * files write it, where YAML would read a list, or fail. A value in quotes is still unquoted as YAML does.
     */
    public static FrontMatter parse(String text, Set<String> verbatim) throws FrontMatterException {
        String content = (text.startsWith("\uFEFF") ? text.substring(1) : text).replace("\r\n", "\n");
        int firstEnd = lineEnd(content, 0);
        if (!content.substring(0, firstEnd).strip().equals(FENCE)) {
            return new FrontMatter(JsonNodeFactory.instance.objectNode(), content);
        }
        int start = next(content, firstEnd);
        for (int at = start; at < content.length(); at = next(content, lineEnd(content, at))) {
            int end = lineEnd(content, at);
            if (content.substring(at, end).strip().equals(FENCE)) {
                return new FrontMatter(
                        fields(literal(content.substring(start, at), verbatim)), content.substring(next(content, end)));
            }
        }
        throw new FrontMatterException(
                "its front matter, opened by --- on line 1, is never closed by another --- line");
    }

    /** The YAML with each top-level {@code key: value} of a {@code verbatim} key's value put in single quotes. */
    private static String literal(String yaml, Set<String> verbatim) {
        if (verbatim.isEmpty()) {
            return yaml;
        }
        StringBuilder out = new StringBuilder();
        for (String line : yaml.split("\n", -1)) {
            Matcher matcher = KEY_VALUE.matcher(line);
            if (matcher.matches() && verbatim.contains(matcher.group(1))) {
                String value = matcher.group(2).strip();
                boolean quoted = value.startsWith("'") || value.startsWith("\"");
                if (!value.isEmpty() && !quoted) {
                    line = matcher.group(1) + ": '" + value.replace("'", "''") + "'";
                }
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** Where the line starting at {@code at} ends: its newline, or the end of the text. */
    private static int lineEnd(String content, int at) {
        int newline = content.indexOf('\n', at);
        return newline < 0 ? content.length() : newline;
    }

    /** Where the next line starts after a line ending at {@code end}. */
    private static int next(String content, int end) {
        return Math.min(end + 1, content.length());
    }

    private static ObjectNode fields(String yaml) throws FrontMatterException {
        if (yaml.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode read;
        try {
            read = Yaml.MAPPER.readTree(yaml);
        } catch (JacksonException e) {
            JsonLocation where = e.getLocation();
            String line = where == null || where.getLineNr() < 1 ? "" : "line " + (where.getLineNr() + 1) + ": ";
            // SnakeYAML's message quotes the offending line with a caret under it; only its sentences are kept.
            String reason = String.join(
                    ": ",
                    e.getOriginalMessage()
                            .lines()
                            .filter(part -> !part.isBlank() && !Character.isWhitespace(part.charAt(0)))
                            .toList());
            throw new FrontMatterException("its front matter is not valid YAML (" + line + reason + ")", e);
        }
        if (read == null || read.isMissingNode() || read.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!(read instanceof ObjectNode object)) {
            throw new FrontMatterException("its front matter is not a list of 'key: value' lines");
        }
        return object;
    }

    /**
     * The value of {@code key} as text: a string, number or true/false; empty when the key is absent or has no value.
     *
     * @throws FrontMatterException when the value is a list or a mapping
     */
    public Optional<String> text(String key) throws FrontMatterException {
        JsonNode value = fields.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isValueNode()) {
            throw new FrontMatterException("'" + key + "' in its front matter should be one line of text");
        }
        String text = value.asText().strip();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /**
     * The value of {@code key} as a list of names: a YAML list of texts, or one text of comma-separated names (as
     * {@code allowed-tools: read_file, grep}); a comma inside parentheses belongs to its name, as in
     * {@code run_shell_command(git log --format=%h,%s)}. Empty when the key is absent.
     *
     * @throws FrontMatterException when the value is a mapping, or a list holds something other than text
     */
    public List<String> list(String key) throws FrontMatterException {
        JsonNode value = fields.get(key);
        if (value == null || value.isNull()) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (!item.isValueNode() || item.isNull()) {
                    throw new FrontMatterException("'" + key + "' in its front matter should be a list of names");
                }
                if (!item.asText().isBlank()) {
                    names.add(item.asText().strip());
                }
            }
            return List.copyOf(names);
        }
        if (!value.isValueNode()) {
            throw new FrontMatterException(
                    "'" + key + "' in its front matter should be a list of names, or names separated by commas");
        }
        return splitOnCommas(value.asText());
    }

    private static List<String> splitOnCommas(String text) {
        List<String> names = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        for (char c : text.toCharArray()) {
            if (c == ',' && depth == 0) {
                add(names, current);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')' && depth > 0) {
                depth--;
            }
            current.append(c);
        }
        add(names, current);
        return List.copyOf(names);
    }

    private static void add(List<String> names, StringBuilder current) {
        String name = current.toString().strip();
        if (!name.isEmpty()) {
            names.add(name);
        }
        current.setLength(0);
    }
}
