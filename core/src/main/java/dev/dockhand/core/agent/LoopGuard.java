package dev.dockhand.core.agent;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelReply;
import java.util.Optional;

/**
 * Notices a model going round in circles: the same tool call with the same arguments five times in a row, or the
 * same text three replies in a row. Arguments are compared as JSON values, so spacing and key order do not hide a
 * repeat. Identical calls within one reply count once: real models send them side by side (Gemini 3 Flash answers
 * one request with three identical parallel calls), which is not a loop; only repeats across replies are.
 */
final class LoopGuard {
    static final int SAME_CALLS = 5;
    static final int SAME_TEXTS = 3;

    private String lastTool;
    private Object lastArguments;
    private int callRepeats;
    private String lastText;
    private int textRepeats;

    /**
     * A new prompt: repeated calls count again from zero, since asking again for what an earlier prompt asked is the
     * user's choice. Repeated answers still count across prompts: the same answer to every prompt is a loop.
     */
    void newTurn() {
        lastTool = null;
        lastArguments = null;
        callRepeats = 0;
    }

    /** Records a reply; says what loop it completes, if any. */
    Optional<String> record(ModelReply reply) {
        java.util.Set<java.util.List<Object>> seen = new java.util.HashSet<>();
        for (ToolCall call : reply.toolCalls()) {
            Object arguments = call.comparableArguments();
            if (!seen.add(java.util.List.of(call.name(), arguments))) {
                continue;
            }
            boolean same = call.name().equals(lastTool) && arguments.equals(lastArguments);
            callRepeats = same ? callRepeats + 1 : 1;
            lastTool = call.name();
            lastArguments = arguments;
            if (callRepeats >= SAME_CALLS) {
                return Optional.of("the model called " + call.name() + " with the same arguments " + SAME_CALLS
                        + " times in a row, so the turn was stopped; rephrase the request or give it more to go on.");
            }
        }
        String text = reply.text().strip();
        if (!text.isEmpty()) {
            textRepeats = text.equals(lastText) ? textRepeats + 1 : 1;
            lastText = text;
            if (textRepeats >= SAME_TEXTS) {
                return Optional.of("the model gave the same reply " + SAME_TEXTS + " times in a row, so the turn was"
                        + " stopped; rephrase the request or give it more to go on.");
            }
        }
        return Optional.empty();
    }
}
