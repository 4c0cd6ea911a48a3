package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isNonEmptyArray;
import static dev.dockhand.core.testing.WireProblems.isNonEmptyText;
import static dev.dockhand.core.testing.WireProblems.isObject;
import static dev.dockhand.core.testing.WireProblems.isText;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Anthropic's Messages API rejects in a request. Hand-written from the API reference and from 400s recorded in
 * public issues (cited at each rule); the wording is ours. Some rules are Dockhand's own, stricter than the API, which
 * now merges neighbouring turns of one role: user and assistant turns alternate (the writer merges them itself),
 * results come in the calls' order, a tool_use's name keeps the tool-name pattern, and a request ends with a user turn
 * for every model (only Claude 4.6 and later refuse a final assistant turn; Dockhand never sends one as a prefill).
 */
final class AnthropicRules {
    private static final Pattern ID = Pattern.compile("[a-zA-Z0-9_-]+");
    /** Recorded: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'" (home-assistant#147760). */
    private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,128}");

    private AnthropicRules() {}

    static void check(JsonNode body, WireProblems problems) {
        problems.require(isNonEmptyText(body.get("model")), "model: Field required");
        problems.require(
                body.path("max_tokens").canConvertToInt()
                        && body.path("max_tokens").asInt() >= 1,
                "max_tokens: Field required, an integer of at least 1");
        JsonNode system = body.get("system");
        problems.require(
                system == null || isText(system) || system.isArray(),
                "system: Input should be a string or a list of text blocks");
        JsonNode messages = body.get("messages");
        if (!isNonEmptyArray(messages)) {
            problems.add("messages: List should have at least 1 item");
            return;
        }
        List<String> pending = List.of();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (!role.equals("user") && !role.equals("assistant")) {
                problems.add("messages." + i + ".role: Input should be 'user' or 'assistant'");
                continue;
            }
            problems.require(i > 0 || role.equals("user"), "messages: the first message must use the user role");
            problems.require(
                    i == 0 || !role.equals(messages.get(i - 1).path("role").asText()),
                    "messages." + i + ": user and assistant turns must alternate; found two " + role + " turns");
            List<JsonNode> blocks = blocks(message.get("content"), "messages." + i, problems);
            texts(blocks, "messages." + i, problems);
            pending = answered(pending, blocks, role, i, problems);
            if (role.equals("assistant")) {
                pending = toolUses(blocks, i, ids, problems);
            }
        }
        // Recorded: "This model does not support assistant message prefill. The conversation must end with a user
        // message." (Claude 4.6 and later, smallmain/vscode-unify-chat-provider#249). Earlier models took a final
        // assistant turn as a prefill, which Dockhand never sends: its requests end with the user's turn or results.
        problems.require(
                messages.get(messages.size() - 1).path("role").asText().equals("user"),
                "This model does not support assistant message prefill. The conversation must end with a user"
                        + " message.");
        // Recorded: "`tool_use` ids were found without `tool_result` blocks immediately after" (claude-code#7929),
        // also when the assistant turn is the last.
        problems.require(
                pending.isEmpty(),
                "messages." + (messages.size() - 1) + ": `tool_use` ids were found"
                        + " without `tool_result` blocks immediately after: " + pending);
        tools(body.get("tools"), problems);
        toolChoice(body, problems);
        // Recorded: "Requests which include `tool_use` or `tool_result` blocks must define tools."
        // (anthropics/anthropic-sdk-python#494, BerriAI/litellm#4689): tools removed once the history has tool blocks.
        problems.require(
                !holdsToolBlocks(messages) || isNonEmptyArray(body.get("tools")),
                "Requests which include `tool_use` or `tool_result` blocks must define tools.");
        cacheControl(body, problems);
        thinking(body, problems);
        ImageRules.anthropic(body, problems);
    }

    /**
     * Documented (prompt caching): "You can define up to 4 cache breakpoints"; a fifth is a 400. Marks count on tools,
     * system blocks and message blocks alike. Thinking blocks "cannot be explicitly marked with cache_control".
     */
    private static void cacheControl(JsonNode body, WireProblems problems) {
        int marks = 0;
        for (JsonNode tool : body.path("tools")) {
            marks += tool.has("cache_control") ? 1 : 0;
        }
        for (JsonNode block : body.path("system")) {
            marks += block.has("cache_control") ? 1 : 0;
        }
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int b = 0; b < content.size(); b++) {
                JsonNode block = content.get(b);
                if (!block.has("cache_control")) {
                    continue;
                }
                marks++;
                problems.require(
                        isObject(block.get("cache_control"))
                                && block.get("cache_control")
                                        .path("type")
                                        .asText()
                                        .equals("ephemeral"),
                        "messages." + i + ".content." + b + ".cache_control.type: Input should be 'ephemeral'");
                String type = block.path("type").asText();
                problems.require(
                        !type.equals("thinking") && !type.equals("redacted_thinking"),
                        "messages." + i + ".content." + b + "." + type + ".cache_control: thinking blocks cannot be"
                                + " marked with cache_control");
            }
        }
        problems.require(marks <= 4, "A maximum of 4 blocks with cache_control may be provided. Found " + marks + ".");
    }

    /**
     * Documented (extended thinking) and recorded 400s: the budget is at least 1,024 and below max_tokens; temperature
     * (other than 1) and top_k may not be set with thinking; a message with thinking blocks opens with them, does not
     * end with one, and keeps each one's signature; with thinking on, a tool loop in progress, which is one assistant
     * turn in one thinking mode, must open with its thinking ("Expected `thinking` or `redacted_thinking`, but found `tool_use`. When
     * `thinking` is enabled, a final `assistant` message must start with a thinking block", openai-agents-python#1704);
     * with it off, the last assistant message may not hold thinking, also when user turns (tool results, a prompt)
     * follow it: forgecode#1853 got "messages.1.content.0: When thinking is disabled, an `assistant` message in the
     * final position cannot contain `thinking`" for the only assistant message of a longer request (the same in
     * microsoft/vscode#282326). Thinking blocks of earlier assistant messages are not refused here: the context-window
     * docs say the API strips earlier turns' thinking itself, and no report shows a 400 for them.
     */
    private static void thinking(JsonNode body, WireProblems problems) {
        JsonNode thinking = body.get("thinking");
        boolean adaptive = thinking != null && thinking.path("type").asText().equals("adaptive");
        boolean on =
                adaptive || thinking != null && thinking.path("type").asText().equals("enabled");
        if (adaptive) {
            // Adaptive thinking (Claude Opus 4.6, Sonnet 4.6 and later) takes no budget; the effort goes in
            // output_config.
            problems.require(
                    !thinking.has("budget_tokens"), "thinking.adaptive.budget_tokens: Extra inputs are not permitted");
            String effort = body.path("output_config").path("effort").asText("high");
            problems.require(
                    java.util.Set.of("low", "medium", "high", "max").contains(effort),
                    "output_config.effort: Input should be 'low', 'medium', 'high' or 'max'");
        }
        if (on) {
            problems.require(
                    !body.has("temperature") || body.get("temperature").asDouble() == 1.0,
                    "`temperature` may only be set to 1 when thinking is enabled.");
        }
        if (on && !adaptive) {
            JsonNode budget = thinking.get("budget_tokens");
            problems.require(
                    budget != null && budget.canConvertToInt() && budget.asInt() >= 1024,
                    "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
            problems.require(
                    budget == null || budget.asInt() < body.path("max_tokens").asInt(),
                    "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at"
                            + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
            problems.require(!body.has("top_k"), "`top_k` cannot be set when thinking is enabled.");
        }
        if (!on) {
            problems.require(
                    thinking == null || thinking.path("type").asText().equals("disabled"),
                    "thinking.type: Input should be 'enabled', 'adaptive' or 'disabled'");
        }
        JsonNode messages = body.path("messages");
        int lastAssistant = messages.size() - 1;
        while (lastAssistant >= 0
                && !messages.get(lastAssistant).path("role").asText().equals("assistant")) {
            lastAssistant--;
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            if (!message.path("role").asText().equals("assistant")) {
                continue;
            }
            thinkingBlocks(message.path("content"), i, !on && i == lastAssistant, problems);
        }
        int last = messages.size() - 1;
        if (on && last >= 1 && answersCalls(messages.get(last))) {
            // The tool loop is one assistant turn, from after the last user turn that answers no calls.
            int opening = last;
            while (opening > 0
                    && !(messages.get(opening - 1).path("role").asText().equals("user")
                            && !answersCalls(messages.get(opening - 1)))) {
                opening--;
            }
            String first =
                    messages.get(opening).path("content").path(0).path("type").asText();
            problems.require(
                    first.equals("thinking") || first.equals("redacted_thinking"),
                    "messages." + opening
                            + ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `"
                            + first + "`. When `thinking` is enabled, a final `assistant` message must start with a"
                            + " thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).");
        }
    }

    /**
     * Checks an assistant turn's thinking blocks; {@code finalWithoutThinking}: it is the request's last assistant
     * message and thinking is off.
     */
    private static void thinkingBlocks(JsonNode content, int at, boolean finalWithoutThinking, WireProblems problems) {
        boolean any = false;
        for (int b = 0; b < content.size(); b++) {
            JsonNode block = content.get(b);
            String type = block.path("type").asText();
            if (!type.equals("thinking") && !type.equals("redacted_thinking")) {
                continue;
            }
            any = true;
            String where = "messages." + at + ".content." + b + "." + type;
            if (type.equals("thinking")) {
                problems.require(isText(block.get("thinking")), where + ".thinking: Field required");
                problems.require(isNonEmptyText(block.get("signature")), where + ".signature: Field required");
            } else {
                problems.require(isNonEmptyText(block.get("data")), where + ".data: Field required");
            }
        }
        if (!any) {
            return;
        }
        String first = content.path(0).path("type").asText();
        problems.require(
                first.equals("thinking") || first.equals("redacted_thinking"),
                "messages." + at + ".content.0: If an assistant message contains any thinking blocks, the first block"
                        + " must be `thinking` or `redacted_thinking`. Found `" + first + "`.");
        String lastType = content.path(content.size() - 1).path("type").asText();
        problems.require(
                !lastType.equals("thinking") && !lastType.equals("redacted_thinking"),
                "messages." + at + ": The final block in an assistant message cannot be `thinking`.");
        problems.require(
                !finalWithoutThinking,
                "messages." + at + ".content.0: When thinking is disabled, an `assistant` message in the final"
                        + " position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your"
                        + " request.");
    }

    private static boolean answersCalls(JsonNode message) {
        if (!message.path("role").asText().equals("user")) {
            return false;
        }
        for (JsonNode block : message.path("content")) {
            if (block.path("type").asText().equals("tool_result")) {
                return true;
            }
        }
        return false;
    }

    /** The message's content as blocks; a string is one text block. */
    private static List<JsonNode> blocks(JsonNode content, String where, WireProblems problems) {
        List<JsonNode> blocks = new ArrayList<>();
        if (isText(content)) {
            blocks.add(Json.object().put("type", "text").put("text", content.asText()));
        } else if (isNonEmptyArray(content)) {
            content.forEach(blocks::add);
        } else {
            problems.add(where + ".content: a non-empty string or list of content blocks is required");
        }
        return blocks;
    }

    /**
     * Recorded: "text content blocks must be non-empty" and "must contain non-whitespace text" (aliasrobotics/cai#182,
     * claude-code#23440); a whitespace block passes beside one with text (LibreChat-AI/agents#124).
     */
    private static void texts(List<JsonNode> blocks, String where, WireProblems problems) {
        boolean anyText = false;
        boolean blank = false;
        for (JsonNode block : blocks) {
            if (!block.path("type").asText().equals("text")) {
                continue;
            }
            String text = block.path("text").asText("");
            problems.require(!text.isEmpty(), where + ": text content blocks must be non-empty");
            anyText |= !text.isBlank();
            blank |= !text.isEmpty() && text.isBlank();
        }
        problems.require(!blank || anyText, where + ": text content blocks must contain non-whitespace text");
    }

    /**
     * Checks that a turn answers {@code pending}, the previous assistant turn's tool_use ids: a user turn opening with
     * one tool_result per id, in order; no tool_result anywhere else. Returns what is still unanswered.
     */
    private static List<String> answered(
            List<String> pending, List<JsonNode> blocks, String role, int at, WireProblems problems) {
        List<String> results = new ArrayList<>();
        boolean leading = true;
        for (int b = 0; b < blocks.size(); b++) {
            JsonNode block = blocks.get(b);
            if (!block.path("type").asText().equals("tool_result")) {
                leading = false;
                continue;
            }
            String id = block.path("tool_use_id").asText();
            // Recorded: "unexpected `tool_use_id` found in `tool_result` blocks" (tghamm/Anthropic.SDK#184).
            problems.require(
                    role.equals("user") && leading && pending.contains(id),
                    "messages." + at + ".content." + b + ": unexpected `tool_use_id` found in `tool_result` blocks: "
                            + id + ". Each `tool_result` block must answer a `tool_use` block of the previous"
                            + " message, and come before any other block.");
            JsonNode content = block.get("content");
            problems.require(
                    content == null || isText(content) || content.isArray(),
                    "messages." + at + ".content." + b + ".content: Input should be a string or a list of blocks");
            results.add(id);
        }
        if (pending.isEmpty()) {
            return pending;
        }
        problems.require(
                results.equals(pending),
                "messages." + at + ": `tool_use` ids were found without"
                        + " `tool_result` blocks immediately after, in order: expected " + pending + ", found "
                        + results);
        return List.of();
    }

    /**
     * Checks the turn's tool_use blocks and returns their ids, which the next turn must answer; {@code seen} holds the
     * ids of the request's earlier turns, which none may repeat.
     */
    private static List<String> toolUses(List<JsonNode> blocks, int at, Set<String> seen, WireProblems problems) {
        List<String> ids = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
            JsonNode block = blocks.get(b);
            if (!block.path("type").asText().equals("tool_use")) {
                continue;
            }
            String where = "messages." + at + ".content." + b + ".tool_use";
            String id = block.path("id").asText();
            // Recorded: "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
            // (CommandCodeAI/command-code#323, a Kimi K2 history sent to Claude in anomalyco/opencode#1279).
            problems.require(ID.matcher(id).matches(), where + ".id: String should match pattern '^[a-zA-Z0-9_-]+$'");
            // Recorded at a late turn: "messages.43.content.2: tool_use ids must be unique"
            // (anthropics/claude-code#28515): the ids of the whole request, not of one turn.
            problems.require(seen.add(id), "messages." + at + ".content." + b + ": `tool_use` ids must be unique");
            // Recorded: "messages.11.content.1.tool_use.name: String should have at least 1 character"
            // (sipeed/picoclaw#1658).
            problems.require(
                    isNonEmptyText(block.get("name")), where + ".name: String should have at least 1 character");
            // Dockhand's own: a tool_use names a tool the request could declare (the tool-name pattern below), so a
            // history that reaches Claude from another provider carries no name the tools could not have.
            problems.require(
                    !isNonEmptyText(block.get("name"))
                            || TOOL_NAME.matcher(block.get("name").asText()).matches(),
                    where + ".name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
            // Recorded: "tool_use.input: Input should be a valid dictionary" (claude-code#6695).
            problems.require(isObject(block.get("input")), where + ".input: Input should be a valid dictionary");
            ids.add(id);
        }
        return ids;
    }

    private static boolean holdsToolBlocks(JsonNode messages) {
        for (JsonNode message : messages) {
            for (JsonNode block : message.path("content")) {
                String type = block.path("type").asText();
                if (type.equals("tool_use") || type.equals("tool_result")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void tools(JsonNode tools, WireProblems problems) {
        if (tools == null) {
            return;
        }
        if (!tools.isArray()) {
            problems.add("tools: Input should be a valid list");
            return;
        }
        Set<String> names = new HashSet<>();
        for (int t = 0; t < tools.size(); t++) {
            JsonNode tool = tools.get(t);
            // Recorded: "tools: Tool names must be unique." (anthropics/claude-code#10687).
            problems.require(names.add(tool.path("name").asText()), "tools: Tool names must be unique.");
            problems.require(
                    TOOL_NAME.matcher(tool.path("name").asText()).matches(),
                    "tools." + t + ".custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
            problems.require(
                    isObject(tool.get("input_schema"))
                            && tool.get("input_schema").path("type").asText().equals("object"),
                    "tools." + t + ".custom.input_schema: an object schema of type 'object' is required");
        }
    }

    /**
     * Documented (API reference, {@code tool_choice}): {@code auto}, {@code any}, {@code tool} with the name of a
     * declared tool, or {@code none} ("The model will not be allowed to use tools", the SDK's ToolChoiceNone). With
     * thinking on only {@code auto} and {@code none} are allowed (extended thinking docs, quoted in
     * anthropics/claude-code#18759); the API answers "Thinking may not be enabled when tool_choice forces tool use."
     * (mastra-ai/mastra#7507). Dockhand's own, stricter than the API: no tool_choice without tools.
     */
    private static void toolChoice(JsonNode body, WireProblems problems) {
        JsonNode choice = body.get("tool_choice");
        if (choice == null) {
            return;
        }
        String type = choice.path("type").asText();
        if (!Set.of("auto", "any", "tool", "none").contains(type)) {
            problems.add("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'");
            return;
        }
        problems.require(isNonEmptyArray(body.get("tools")), "tool_choice: tools must be set with tool_choice");
        if (type.equals("tool")) {
            boolean declared = false;
            for (JsonNode tool : body.path("tools")) {
                declared |=
                        tool.path("name").asText().equals(choice.path("name").asText());
            }
            problems.require(declared, "tool_choice.tool.name: the tool must be one of the request's tools");
        }
        String thinking = body.path("thinking").path("type").asText();
        problems.require(
                !(thinking.equals("enabled") || thinking.equals("adaptive"))
                        || type.equals("auto")
                        || type.equals("none"),
                "Thinking may not be enabled when tool_choice forces tool use.");
    }
}
