package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tool calls and results of one request as the API it goes to takes them: each name through {@link
 * ToolCall#wireName}, each id as below.
 *
 * <p>The conversation keeps each id as its provider made it (Kimi K2 reads its own {@code functions.read_file:0} back), but after a switch of provider, or with a server
 * that makes ids of its own shape, an id can break the target's rule: Anthropic takes only {@code ^[a-zA-Z0-9_-]+$}
 * ("tool_use.id: String should match pattern", CommandCodeAI/command-code#323), OpenAI's chat completions at most 40
 * characters ("string too long. Expected a string with maximum length 40", openclaw/openclaw#875), Responses at most
 * 64 (AnswerDotAI/fastllm#45), Mistral exactly nine letters and digits ("Tool call id was abc123 but must be a-z, A-Z,
 * 0-9, with a length of 9", langchain-ai/langchain#24668; mistralai/mistral-common's request validator). Servers that
 * count calls per reply ({@code call_0}, Kimi's {@code :0}) repeat ids
 * across replies, and Anthropic refuses a repeat anywhere in the request ("tool_use ids must be unique",
 * anthropics/claude-code#28515).
 *
 * <p>Such an id goes out as {@code call_} and 24 hex digits of a SHA-256 of it (for Mistral: nine letters and digits,
 * the hash's first 64 bits in base 62), and of its message's index when it repeats an earlier one, so the replacement is the same in every request (a cached prefix stays the same bytes) and
 * unique in this one. A result carries the id its call went out with: the call of that id in the latest assistant
 * message before it. An id that keeps the rule and is not taken goes out as it is.
 */
public final class WireCalls {
    /** What one API takes as a tool-call id. */
    public record Rule(Pattern allowed, int maxLength, Replacement replacement) {
        /** OpenAI's chat completions: any string of at most 40 characters. */
        public static final Rule OPENAI_CHAT = new Rule(Pattern.compile("(?s).+"), 40, Replacement.CALL_HEX);
        /** OpenAI's Responses {@code call_id}: at most 64 characters. */
        public static final Rule RESPONSES = new Rule(Pattern.compile("(?s).+"), 64, Replacement.CALL_HEX);
        /** Anthropic's {@code tool_use.id}: letters, digits, {@code _} and {@code -}. */
        public static final Rule ANTHROPIC =
                new Rule(Pattern.compile("[a-zA-Z0-9_-]+"), Integer.MAX_VALUE, Replacement.CALL_HEX);
        /** Mistral's tool call ids, in a call and in a tool message alike: exactly nine letters and digits. */
        public static final Rule MISTRAL =
                new Rule(Pattern.compile("[a-zA-Z0-9]{9}"), 9, Replacement.NINE_ALPHANUMERIC);

        boolean fits(String id) {
            return id.length() <= maxLength && allowed.matcher(id).matches();
        }
    }

    /** How a replacement is written from the SHA-256 of what it replaces. */
    public enum Replacement {
        /** {@code call_} and the hash's first 24 hex digits: 29 characters, which every rule but Mistral's takes. */
        CALL_HEX {
            @Override
            String write(byte[] hash) {
                return "call_" + HexFormat.of().formatHex(hash).substring(0, 24);
            }
        },
        /** The hash's first 64 bits in base 62, nine digits (62^9 values): Mistral's shape. */
        NINE_ALPHANUMERIC {
            @Override
            String write(byte[] hash) {
                long value = ByteBuffer.wrap(hash, 0, Long.BYTES).getLong();
                char[] digits = new char[9];
                for (int i = digits.length - 1; i >= 0; i--) {
                    digits[i] = BASE62.charAt((int) Long.remainderUnsigned(value, BASE62.length()));
                    value = Long.divideUnsigned(value, BASE62.length());
                }
                return new String(digits);
            }
        };

        private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

        abstract String write(byte[] hash);
    }

    private final Rule rule;
    private final Map<Message.Assistant, List<String>> calls = new IdentityHashMap<>();
    private final Map<Message.ToolResult, String> results = new IdentityHashMap<>();

    private WireCalls(Rule rule) {
        this.rule = rule;
    }

    /** The ids of {@code messages}, the whole history of one request, under {@code rule}. */
    public static WireCalls of(List<Message> messages, Rule rule) {
        WireCalls ids = new WireCalls(rule);
        Set<String> used = new HashSet<>();
        Map<String, String> latest = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            if (message instanceof Message.Assistant assistant && assistant.hasToolCalls()) {
                latest = new HashMap<>();
                List<String> wire = new ArrayList<>();
                for (ToolCall call : assistant.toolCalls()) {
                    String id = ids.assign(call.id(), i, used);
                    latest.putIfAbsent(call.id(), id);
                    wire.add(id);
                }
                ids.calls.put(assistant, List.copyOf(wire));
            } else if (message instanceof Message.ToolResult result) {
                String id = latest.get(result.toolCallId());
                ids.results.put(result, id != null ? id : ids.alone(result.toolCallId()));
            }
        }
        return ids;
    }

    /** The {@code index}th call of {@code assistant} as it goes out: its id and name as the API takes them. */
    public ToolCall call(Message.Assistant assistant, int index) {
        ToolCall call = assistant.toolCalls().get(index);
        List<String> wire = calls.get(assistant);
        String id = wire != null ? wire.get(index) : alone(call.id());
        String name = ToolCall.wireName(call.name());
        // The call as it is when nothing changes: a new one would check its arguments again at every request.
        return id.equals(call.id()) && name.equals(call.name()) ? call : new ToolCall(id, name, call.arguments());
    }

    /** {@code result} as it goes out: with the id its call went out with, and the call's name as it went out. */
    public Message.ToolResult result(Message.ToolResult result) {
        String found = results.get(result);
        String id = found != null ? found : alone(result.toolCallId());
        String name = ToolCall.wireName(result.toolName());
        if (id.equals(result.toolCallId()) && name.equals(result.toolName())) {
            // As it is: a new result would look its whole content over again at every request.
            return result;
        }
        return new Message.ToolResult(id, name, result.content(), result.error(), result.images());
    }

    /** The id for a message outside the request's history: the same replacement, without the request's context. */
    private String alone(String id) {
        return rule.fits(id) ? id : replacement(id);
    }

    private String assign(String id, int index, Set<String> used) {
        if (rule.fits(id) && used.add(id)) {
            return id;
        }
        String candidate = replacement(used.contains(replacement(id)) ? id + "@" + index : id);
        while (!used.add(candidate)) {
            // Only a hash collision or an original id that looks like a replacement gets here.
            candidate = replacement(candidate);
        }
        return candidate;
    }

    private String replacement(String id) {
        try {
            return rule.replacement()
                    .write(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
