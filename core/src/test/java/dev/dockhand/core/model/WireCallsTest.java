package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireCallsTest {
    /** Kimi K2's id shape, which servers that count calls per reply repeat in every reply. */
    private static final String KIMI = "functions.read_file:0";
    /** An OpenRouter-style id of 83 characters (openclaw/openclaw#875 met one that long). */
    private static final String LONG = "gen-1767225900-" + "a".repeat(20) + "/toolu_bdrk_01" + "b".repeat(34);

    private static final String KIMI_REPLACED = "call_f9cc2c7822d54220cf887543";
    private static final String KIMI_REPEAT_AT_6 = "call_fcba0e59b7c609b6b21f8274";
    private static final String LONG_REPLACED = "call_296a75d2d00a1bb74841fe2c";

    private static List<Message> history() {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("go"),
                new Message.Assistant(
                        "",
                        List.of(
                                new ToolCall(KIMI, "read_file", "{}"),
                                new ToolCall(LONG, "repo_browser.open_file", "{}"))),
                new Message.ToolResult(KIMI, "read_file", "A", false),
                new Message.ToolResult(LONG, "repo_browser.open_file", "no such tool", true),
                new Message.User("again"),
                new Message.Assistant("", List.of(new ToolCall(KIMI, "read_file", "{}"))),
                new Message.ToolResult(KIMI, "read_file", "B", false));
    }

    /** Each call's and each result's id and name as they go out, in the history's order. */
    private static List<String> wire(WireCalls.Rule rule) {
        List<Message> messages = history();
        WireCalls wire = WireCalls.of(messages, rule);
        List<String> out = new ArrayList<>();
        for (Message message : messages) {
            if (message instanceof Message.Assistant assistant) {
                for (int i = 0; i < assistant.toolCalls().size(); i++) {
                    ToolCall call = wire.call(assistant, i);
                    out.add(call.id() + " " + call.name());
                }
            } else if (message instanceof Message.ToolResult result) {
                Message.ToolResult sent = wire.result(result);
                out.add(sent.toolCallId() + " " + sent.toolName());
            }
        }
        return out;
    }

    @Test
    void anthropicGetsIdsOfItsPatternUniqueInTheRequestAndEachResultItsCallsId() {
        assertEquals(
                List.of(
                        KIMI_REPLACED + " read_file",
                        LONG_REPLACED + " invalid_tool_name",
                        KIMI_REPLACED + " read_file",
                        LONG_REPLACED + " invalid_tool_name",
                        KIMI_REPEAT_AT_6 + " read_file",
                        KIMI_REPEAT_AT_6 + " read_file"),
                wire(WireCalls.Rule.ANTHROPIC));
    }

    @Test
    void openAiKeepsIdsThatFitAndReplacesTooLongOnesAndRepeats() {
        List<String> expected = List.of(
                KIMI + " read_file",
                LONG_REPLACED + " invalid_tool_name",
                KIMI + " read_file",
                LONG_REPLACED + " invalid_tool_name",
                KIMI_REPLACED + " read_file",
                KIMI_REPLACED + " read_file");
        assertEquals(expected, wire(WireCalls.Rule.OPENAI_CHAT));
        assertEquals(expected, wire(WireCalls.Rule.RESPONSES));
    }

    /**
     * Mistral takes exactly nine letters and digits: every id here is replaced (the same hash, written in base 62),
     * each result with its call's, a repeat unique; a nine-character id of Mistral's own goes out as it is.
     */
    @Test
    void mistralGetsNineLettersAndDigitsForEveryIdThatIsNotAlreadyThat() {
        assertEquals(
                List.of(
                        "fK5QpNEtU read_file",
                        "SFWofSboN invalid_tool_name",
                        "fK5QpNEtU read_file",
                        "SFWofSboN invalid_tool_name",
                        "G2Y0x5EUo read_file",
                        "G2Y0x5EUo read_file"),
                wire(WireCalls.Rule.MISTRAL));
        assertEquals(
                List.of(true, false, false, false),
                List.of("Rd7mQx2Kp", "Rd7mQx2K", "Rd7mQx2Kp0", "Rd7mQx2K_").stream()
                        .map(WireCalls.Rule.MISTRAL::fits)
                        .toList());
    }

    @Test
    void theReplacementsAreTheSameInEveryRequestAndFitEveryRule() {
        assertEquals(wire(WireCalls.Rule.ANTHROPIC), wire(WireCalls.Rule.ANTHROPIC));
        assertEquals(wire(WireCalls.Rule.MISTRAL), wire(WireCalls.Rule.MISTRAL));
        for (String id : List.of(KIMI_REPLACED, KIMI_REPEAT_AT_6, LONG_REPLACED)) {
            assertEquals(
                    List.of(true, true, true),
                    List.of(
                            WireCalls.Rule.ANTHROPIC.fits(id),
                            WireCalls.Rule.OPENAI_CHAT.fits(id),
                            WireCalls.Rule.RESPONSES.fits(id)));
        }
    }

    @Test
    void namesEveryApiTakesStayAndOthersBecomeThePlaceholder() {
        assertEquals(
                List.of(
                        "read_file",
                        "mcp__git-server__log",
                        "invalid_tool_name",
                        "invalid_tool_name",
                        "invalid_tool_name"),
                List.of("read_file", "mcp__git-server__log", "repo_browser.open_file", "a".repeat(65), "read file")
                        .stream()
                        .map(ToolCall::wireName)
                        .toList());
    }
}
