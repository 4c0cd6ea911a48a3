package dev.dockhand.core.model.openai;

import dev.dockhand.core.model.WireCalls;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a chat-completions server holds a request to beyond OpenAI's own rules, as far as its host and the model's
 * name tell. (DeepSeek's reasoning fields are {@link OpenAiReasoning}'s.)
 *
 * <p>Mistral's models are checked by mistralai/mistral-common's request validator, wherever they run (Mistral's API,
 * and gateways or vLLM serving {@code mistralai/…}): after a {@code tool} message only an {@code assistant} or another
 * {@code tool} message may come ("Unexpected role 'user' after role 'tool'", code 3230: zed-industries/zed#37021,
 * NousResearch/hermes-agent#20154), an assistant message needs content or tool calls ("Assistant message must have
 * either content or tool_calls, but not none.", mistralai/mistral-vibe#555), and tool call ids are nine letters and
 * digits ({@link WireCalls.Rule#MISTRAL}). Mistral's own API also refuses every field it does not know, {@code
 * stream_options} among them (422 {@code extra_forbidden}: cline/cline#582, dnakov/anon-kode#53); it sends the usage in
 * the stream's last chunk without being asked (its release note of 2024-01-16).
 */
enum OpenAiDialect {
    /** OpenAI's rules, which most servers keep. */
    OPENAI(WireCalls.Rule.OPENAI_CHAT, StreamOptions.SENT, Bridge.NONE),
    /** A Mistral model behind another server (a gateway, vLLM): Mistral's message order and ids. */
    MISTRAL_MODEL(WireCalls.Rule.MISTRAL, StreamOptions.SENT, Bridge.AFTER_TOOL_MESSAGES),
    /** Mistral's own API: its message order and ids, and no {@code stream_options}. */
    MISTRAL_API(WireCalls.Rule.MISTRAL, StreamOptions.LEFT_OUT, Bridge.AFTER_TOOL_MESSAGES);

    /** Whether the request asks for the usage chunk with {@code stream_options}. */
    enum StreamOptions {
        SENT,
        LEFT_OUT
    }

    /** Whether a short assistant message goes between a tool message and a following user or system message. */
    enum Bridge {
        NONE,
        AFTER_TOOL_MESSAGES
    }

    /**
     * What goes between the last tool message of a round and a user message after it, and in place of an empty
     * assistant message, where Mistral needs an assistant message with content. Short and true: the model has read the
     * results.
     */
    static final String BRIDGE_TEXT = "I have read the tool results.";

    /**
     * Mistral's model families by their API names (mistral-large-latest, codestral-2501, devstral-medium-2507,
     * magistral-small-latest, open-mixtral-8x22b, pixtral-12b-2409, ministral-8b-latest, and fine-tunes as {@code
     * ft:open-mistral-7b:…}), and as gateways and Hugging Face name them after the owner ({@code
     * mistralai/Devstral-Small-2-24B-Instruct-2512}).
     */
    private static final Pattern MISTRAL_NAME = Pattern.compile(
            "(ft:)?(open-)?(mistral|mixtral|codestral|devstral|magistral|pixtral|ministral|voxtral)([-.:_].*)?");

    private final WireCalls.Rule ids;
    private final StreamOptions streamOptions;
    private final Bridge bridge;

    OpenAiDialect(WireCalls.Rule ids, StreamOptions streamOptions, Bridge bridge) {
        this.ids = ids;
        this.streamOptions = streamOptions;
        this.bridge = bridge;
    }

    /**
     * The dialect of a request for {@code model} to the server at {@code host}: Mistral's API when the host is
     * Mistral's ({@code api.mistral.ai}, {@code codestral.mistral.ai}), or the name is one of Mistral's API names (no
     * owner before a slash, as DeepSeek's are told apart); a Mistral model elsewhere when the name's last part is one of
     * Mistral's families.
     */
    static OpenAiDialect of(String host, String model) {
        String server = host.toLowerCase(Locale.ROOT);
        if (server.equals("mistral.ai") || server.endsWith(".mistral.ai")) {
            return MISTRAL_API;
        }
        String name = model.strip().toLowerCase(Locale.ROOT);
        String last = name.substring(name.lastIndexOf('/') + 1);
        if (!MISTRAL_NAME.matcher(last).matches()) {
            return OPENAI;
        }
        return name.contains("/") ? MISTRAL_MODEL : MISTRAL_API;
    }

    WireCalls.Rule ids() {
        return ids;
    }

    StreamOptions streamOptions() {
        return streamOptions;
    }

    Bridge bridge() {
        return bridge;
    }
}
