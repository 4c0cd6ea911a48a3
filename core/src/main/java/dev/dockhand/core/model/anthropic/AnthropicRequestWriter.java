package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ImageBudget;
import dev.dockhand.core.model.ImageInput;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.RequestJson;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.model.WireCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a request for {@code POST /v1/messages}. The API wants user and assistant turns strictly alternating, with
 * no empty or whitespace-only text (a 400 either way): tool results become {@code tool_result} blocks of a user turn,
 * blank text is left out, and neighbouring turns of one role are merged into one.
 *
 * <p><b>Prompt caching</b> is on unless switched off: {@code cache_control: {"type":"ephemeral"}} marks the end of
 * the last tool, of the system prompt, of the newest message, and of the message the previous request ended with (the
 * user turn before the last assistant turn). The API caches the prompt (tools, then system, then messages) up to each
 * mark and reads a prefix back when a later request marks the same position with the same bytes before it, so each
 * round reads the whole history from the previous round's mark and writes only what is new. The mark on the previous
 * request's end matters: the API looks back only about 20 blocks from a mark for an earlier cached prefix, and a round
 * of many parallel tool calls adds more than that. That is four marks, the most the API takes. A prefix shorter than
 * the model's minimum (1,024 to 4,096 tokens) is simply not cached, with no error. What is before a mark must stay
 * byte-identical from request to request: a change to the tools invalidates everything, to the system prompt the
 * system and messages, and a change of the thinking setting the messages. Thinking blocks cannot carry a mark and
 * never get one (only user turns are marked).
 *
 * <p><b>Tools</b>: the tools on offer; when none is, the tools the history calls ({@link HistoryTools}) with {@code
 * tool_choice: {"type":"none"}}, since the API refuses tool blocks in a request without tools.
 *
 * <p><b>Thinking</b>: a reasoning effort turns on extended thinking with a fixed budget ({@link #budget}); without
 * one no {@code thinking} is sent and the model does not think. The API wants {@code budget_tokens} at least 1,024 and
 * below {@code max_tokens}, which is raised to leave the answer room; temperature and top_k may not be set with
 * thinking (Dockhand sets neither). A reply's thinking and redacted-thinking blocks come back from its {@link
 * dev.dockhand.core.conversation.ProviderState} (wire {@value #WIRE}; state from other wires is dropped) unchanged and
 * in their place: the state keeps the reply's blocks in stream order (thinking, text runs, tool_use by position), and
 * the turn is written in that order, since the API checks the latest assistant message's thinking blocks against
 * where the reply had them (with interleaved thinking a reply can be thinking, tool_use, thinking, tool_use). State
 * saved before the order was kept (thinking blocks only) replays as it always did: the thinking first, then the text,
 * then the tool_use blocks. The API ignores the thinking of earlier turns but needs a tool loop (one assistant turn)
 * to open with its thinking; it is sent for every turn so the cached prefix stays the same bytes. When the loop did
 * not open with thinking (it began with another provider, or without a reasoning effort), thinking stays off until
 * the loop ends, as the API asks, rather than being refused. A request without {@code thinking} carries no thinking
 * blocks at all: the API refuses them in the last assistant message then ("When thinking is disabled, an
 * {@code assistant} message in the final position cannot contain {@code thinking}").
 */
final class AnthropicRequestWriter {
    /** The {@link dev.dockhand.core.conversation.ProviderState#wire()} of this wire's thinking blocks. */
    static final String WIRE = "anthropic";
    /** The API refuses a request with more {@code cache_control} marks than this. */
    static final int MAX_BREAKPOINTS = 4;
    /** Output room left for the answer beside the thinking budget when the configured limit would leave less. */
    static final int ANSWER_ROOM = 8_000;

    private AnthropicRequestWriter() {}

    /**
     * The thinking budget for an effort: a few thousand tokens, ten thousand, and 24,000, which with {@link
     * #ANSWER_ROOM} makes 32,000 output tokens, the most any model with extended thinking (Claude Opus 4) can return.
     */
    static int budget(ReasoningEffort effort) {
        return switch (effort) {
            case LOW -> 4_000;
            case MEDIUM -> 10_000;
            case HIGH -> 24_000;
        };
    }

    static ObjectNode write(ModelRequest request, int maxTokens) {
        return write(request, maxTokens, true);
    }

    /** @param caching whether to mark cache breakpoints; off only to measure what caching saves */
    static ObjectNode write(ModelRequest request, int maxTokens, boolean caching) {
        ObjectNode body = Json.object();
        body.put("model", request.model());
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        List<ObjectNode> breakpoints = new ArrayList<>();
        ArrayNode messages = body.putArray("messages");
        String system = "";
        List<Map.Entry<Message.ToolResult, List<Image>>> carried = new ArrayList<>();
        ImageBudget images =
                ImageBudget.plan(request.messages(), ImageInput.anthropic(request.model()), ImageBudget.ANTHROPIC);
        WireCalls wire = WireCalls.of(request.messages(), WireCalls.Rule.ANTHROPIC);
        for (Message message : request.messages()) {
            if (message instanceof Message.System given) {
                system = given.text();
            } else {
                if (!(message instanceof Message.ToolResult)) {
                    carryImages(messages, carried);
                }
                append(messages, message, request.model(), images, carried, wire);
            }
        }
        carryImages(messages, carried);
        breakpoints.addAll(messageBreakpoints(messages));
        if (!system.isBlank()) {
            ObjectNode block =
                    body.putArray("system").addObject().put("type", "text").put("text", system);
            breakpoints.add(block);
        }
        // The API refuses tool_use and tool_result blocks in a request without tools: when none is offered, those
        // the history calls are declared, and the model may call none of them.
        boolean offered = !request.tools().isEmpty();
        List<ToolDeclaration> declared = offered ? request.tools() : HistoryTools.of(messages, request.withheld());
        if (!declared.isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            ObjectNode entry = null;
            for (ToolDeclaration tool : declared) {
                entry = tools.addObject().put("name", tool.name()).put("description", tool.description());
                entry.set("input_schema", tool.parameters());
            }
            breakpoints.add(entry);
            if (!offered) {
                body.putObject("tool_choice").put("type", "none");
            }
        }
        if (caching) {
            breakpoints.stream().limit(MAX_BREAKPOINTS).forEach(block -> block.putObject("cache_control")
                    .put("type", "ephemeral"));
        }
        if (!thinks(body, request, maxTokens, messages)) {
            // No breakpoint is on a thinking block: they are on user turns and on the newest block, never thinking.
            messages.forEach(AnthropicRequestWriter::dropThinking);
        }
        return body;
    }

    /**
     * Turns thinking on when the request asks for it and the model and the tool loop in progress allow it, raising
     * {@code max_tokens} to leave the answer room; whether it did.
     */
    private static boolean thinks(ObjectNode body, ModelRequest request, int maxTokens, ArrayNode messages) {
        Optional<ReasoningEffort> effort = request.reasoningEffort();
        AnthropicModels.Thinking mode = AnthropicModels.thinking(request.model());
        if (effort.isEmpty() || mode == AnthropicModels.Thinking.NONE || !turnOpensWithThinking(messages)) {
            return false;
        }
        int budget = budget(effort.get());
        body.put("max_tokens", Math.max(maxTokens, budget + ANSWER_ROOM));
        if (mode == AnthropicModels.Thinking.ADAPTIVE) {
            // The models that decide their own thinking refuse a budget: the effort says how hard instead.
            body.putObject("thinking").put("type", "adaptive");
            body.putObject("output_config").put("effort", effort.get().cliName());
        } else {
            body.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
        }
        return true;
    }

    /** Leaves an assistant turn's thinking blocks out; it keeps its text or a tool_use, the only turns written. */
    private static void dropThinking(JsonNode turn) {
        if (turn.path("role").asText().equals("assistant")) {
            ((ArrayNode) turn.get("content")).removeIf(AnthropicRequestWriter::isThinking);
        }
    }

    /**
     * The blocks to mark in the messages, newest first: the last block of the last turn, and that of the turn the
     * previous request ended with, the user turn before the last assistant turn.
     */
    private static List<ObjectNode> messageBreakpoints(ArrayNode messages) {
        List<ObjectNode> marks = new ArrayList<>();
        int last = messages.size() - 1;
        if (last >= 0) {
            marks.add(lastBlock(messages.get(last)));
        }
        if (last >= 2 && messages.get(last - 1).path("role").asText().equals("assistant")) {
            marks.add(lastBlock(messages.get(last - 2)));
        }
        return marks;
    }

    private static ObjectNode lastBlock(JsonNode turn) {
        JsonNode content = turn.get("content");
        return (ObjectNode) content.get(content.size() - 1);
    }

    /**
     * Whether the request may have thinking on. A tool loop is one assistant turn, which the API wants in one thinking
     * mode: when the request continues a loop (its last user turn answers tool calls), the turn's first assistant
     * message, the one after the last user turn that answers none, must open with a thinking block, or the API refuses
     * thinking on. Without interleaved thinking Claude thinks only there, so the later rounds need none of their own.
     */
    private static boolean turnOpensWithThinking(ArrayNode messages) {
        int last = messages.size() - 1;
        if (last < 1 || !answersCalls(messages.get(last))) {
            return true;
        }
        int start = last;
        while (start >= 0
                && (!messages.get(start).path("role").asText().equals("user") || answersCalls(messages.get(start)))) {
            start--;
        }
        return isThinking(messages.get(start + 1).path("content").path(0));
    }

    private static boolean answersCalls(JsonNode turn) {
        for (JsonNode block : turn.path("content")) {
            if (block.path("type").asText().equals("tool_result")) {
                return true;
            }
        }
        return false;
    }

    static boolean isThinking(JsonNode block) {
        String type = block.path("type").asText();
        return type.equals("thinking") || type.equals("redacted_thinking");
    }

    private static void append(
            ArrayNode messages,
            Message message,
            String model,
            ImageBudget images,
            List<Map.Entry<Message.ToolResult, List<Image>>> carried,
            WireCalls wire) {
        if (message instanceof Message.User user) {
            if (!user.text().isBlank()) {
                turn(messages, "user").addObject().put("type", "text").put("text", user.text());
            }
        } else if (message instanceof Message.Assistant assistant) {
            appendAssistant(messages, assistant, model, wire);
        } else if (message instanceof Message.ToolResult given) {
            Message.ToolResult result = wire.result(given);
            ObjectNode block = turn(messages, "user")
                    .addObject()
                    .put("type", "tool_result")
                    .put("tool_use_id", result.toolCallId());
            toolResultContent(block, images.split(given), result, carried);
            if (result.error()) {
                block.put("is_error", true);
            }
        }
    }

    /**
     * An assistant message as blocks of an assistant turn, in the order {@link AnthropicReplayOrder} gives: the reply's
     * stream order when its state keeps it, else its thinking, its text and its tool_use blocks. Nothing for a message
     * of thinking alone.
     */
    private static void appendAssistant(ArrayNode messages, Message.Assistant assistant, String model, WireCalls wire) {
        // A turn of thinking alone is refused ("the final block in an assistant message cannot be thinking").
        if (assistant.text().isBlank() && !assistant.hasToolCalls()) {
            return;
        }
        // Thinking blocks must open their turn; merged into a turn that already has blocks they would not.
        boolean fresh = !lastRoleIs(messages, "assistant");
        ArrayNode content = turn(messages, "assistant");
        for (JsonNode block : AnthropicReplayOrder.of(assistant, model)) {
            if (block.path("type").asText().equals("tool_use")) {
                content.add(toolUse(wire.call(assistant, block.path("call").asInt())));
            } else if (fresh || !isThinking(block)) {
                content.add(block);
            }
        }
    }

    private static ObjectNode toolUse(ToolCall call) {
        ObjectNode block =
                Json.object().put("type", "tool_use").put("id", call.id()).put("name", call.name());
        block.set("input", ToolArguments.asObject(call.arguments()));
        return block;
    }

    /**
     * A result's content: its text as a string, or, with images the model takes, a list of a text block (when there is
     * text: an empty one is refused) and one {@code image} block per image with its base64 source. The API takes
     * images in a user turn, in {@code tool_result} content among them, and nowhere in an assistant turn. An error
     * result may hold text only ("all content must be type `text` if `is_error` is true",
     * vellum-ai/vellum-assistant#18387): its images go in {@code carried}, for blocks after the round's results.
     */
    private static void toolResultContent(
            ObjectNode block,
            ImageInput.Split split,
            Message.ToolResult result,
            List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        if (!split.sends()) {
            block.put("content", split.text());
            return;
        }
        if (result.error()) {
            StringBuilder text = new StringBuilder(split.text());
            for (Image image : split.sent()) {
                text.append(text.length() == 0 ? "" : "\n").append(ImageInput.followsNote(image));
            }
            block.put("content", text.toString());
            carried.add(Map.entry(result, split.sent()));
            return;
        }
        ArrayNode content = block.putArray("content");
        if (!split.text().isEmpty()) {
            content.addObject().put("type", "text").put("text", split.text());
        }
        for (Image image : split.sent()) {
            content.add(imageBlock(image));
        }
    }

    private static ObjectNode imageBlock(Image image) {
        ObjectNode block = Json.object().put("type", "image");
        block.putObject("source")
                .put("type", "base64")
                .put("media_type", image.mimeType())
                .put("data", image.data());
        return block;
    }

    /**
     * The images of a round's error results as blocks of the same user turn after its {@code tool_result} blocks,
     * which must open it, each call's after a line naming it.
     */
    private static void carryImages(ArrayNode messages, List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        if (carried.isEmpty()) {
            return;
        }
        ArrayNode content = turn(messages, "user");
        for (Map.Entry<Message.ToolResult, List<Image>> entry : carried) {
            content.addObject().put("type", "text").put("text", ImageInput.carriedLabel(entry.getKey()));
            entry.getValue().forEach(image -> content.add(imageBlock(image)));
        }
        carried.clear();
    }

    private static boolean lastRoleIs(ArrayNode messages, String role) {
        return !messages.isEmpty()
                && messages.get(messages.size() - 1).path("role").asText().equals(role);
    }

    private static ArrayNode turn(ArrayNode messages, String role) {
        return RequestJson.turn(messages, role, "content");
    }
}
