package dev.dockhand.core.hooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import java.time.Duration;
import java.util.Optional;

/**
 * What one hook answered, read as Claude Code reads it. By exit code: 0 goes on (stdout is context for
 * UserPromptSubmit and SessionStart; a JSON object on stdout is read instead, see below); 2 blocks, with stderr as the
 * reason; any other code is a failure to report, and changes nothing. The JSON fields Dockhand reads: {@code continue}
 * (false stops: blocks the prompt or the call, ends the turn at Stop), {@code stopReason}, {@code systemMessage} (shown
 * to the user), {@code decision} ({@code "block"} with {@code reason}) and {@code hookSpecificOutput} with
 * {@code permissionDecision} ({@code "deny"} blocks, with {@code permissionDecisionReason}), {@code updatedInput} and
 * {@code additionalContext}. JSON of the wrong shape is junk: reported, and the hook's answer ignored.
 */
record HookAnswer(
        boolean block,
        Optional<String> reason,
        boolean stop,
        Optional<String> stopReason,
        Optional<String> context,
        Optional<JsonNode> updatedInput,
        Optional<String> systemMessage,
        Optional<String> problem) {

    static final HookAnswer NOTHING = new HookAnswer(
            false,
            Optional.empty(),
            false,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    /** How much of a failed hook's stderr a report quotes. */
    private static final int QUOTE_LIMIT = 300;

    static HookAnswer read(HookEvent event, HookProcess.Finished finished, Duration timeout) {
        switch (finished.ending()) {
            case CANCELLED:
                return NOTHING;
            case TIMED_OUT:
                return problem("did not finish within " + timeout.toSeconds() + " s and was stopped");
            default:
                break;
        }
        if (finished.exitCode() == 2) {
            String reason = finished.stderr().strip();
            return new HookAnswer(
                    true,
                    Optional.of(reason.isEmpty() ? "(the hook gave no reason on stderr)" : reason),
                    false,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty());
        }
        if (finished.exitCode() != 0) {
            String stderr = finished.stderr().strip();
            return problem(
                    "exited with code " + finished.exitCode() + (stderr.isEmpty() ? "" : " (" + quote(stderr) + ")"));
        }
        String stdout = finished.stdout().strip();
        if (stdout.startsWith("{")) {
            return json(event, stdout);
        }
        boolean takesText = event == HookEvent.USER_PROMPT_SUBMIT || event == HookEvent.SESSION_START;
        if (takesText && !stdout.isEmpty()) {
            return NOTHING.withContext(stdout);
        }
        return NOTHING;
    }

    private static HookAnswer json(HookEvent event, String stdout) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(stdout);
        } catch (JsonProcessingException e) {
            return problem("printed something that starts like JSON but is not (" + quote(stdout) + ")");
        }
        if (root == null || !root.isObject()) {
            return problem("printed something that starts like JSON but is not a JSON object (" + quote(stdout) + ")");
        }
        try {
            return fields(event, root);
        } catch (Junk junk) {
            return problem("answered with JSON Dockhand cannot use: " + junk.getMessage());
        }
    }

    private static HookAnswer fields(HookEvent event, JsonNode root) throws Junk {
        boolean stop = !bool(root, "continue", true);
        Optional<String> stopReason = text(root, "stopReason");
        Optional<String> systemMessage = text(root, "systemMessage");
        Optional<String> decision = text(root, "decision");
        Optional<String> reason = text(root, "reason");
        if (decision.isPresent()
                && !decision.get().equals("block")
                && !decision.get().equals("approve")) {
            throw new Junk("'decision' must be \"block\" or \"approve\", was \"" + decision.get() + "\"");
        }
        boolean block = decision.filter("block"::equals).isPresent();
        Optional<String> context = Optional.empty();
        Optional<JsonNode> updatedInput = Optional.empty();
        JsonNode specific = root.get("hookSpecificOutput");
        if (specific != null && !specific.isNull()) {
            if (!specific.isObject()) {
                throw new Junk("'hookSpecificOutput' must be an object");
            }
            context = text(specific, "additionalContext");
            if (event == HookEvent.PRE_TOOL_USE) {
                Optional<String> permission = text(specific, "permissionDecision");
                if (permission.isPresent() && !permission.get().matches("allow|deny|ask")) {
                    throw new Junk("'permissionDecision' must be \"allow\", \"deny\" or \"ask\", was \""
                            + permission.get() + "\"");
                }
                if (permission.filter("deny"::equals).isPresent()) {
                    block = true;
                    Optional<String> why = text(specific, "permissionDecisionReason");
                    reason = why.isPresent() ? why : reason;
                }
                JsonNode input = specific.get("updatedInput");
                if (input != null && !input.isNull()) {
                    if (!input.isObject()) {
                        throw new Junk("'updatedInput' must be an object of the tool's arguments");
                    }
                    updatedInput = Optional.of(input);
                }
            }
        }
        if (block && reason.isEmpty()) {
            reason = Optional.of("(the hook gave no reason)");
        }
        return new HookAnswer(block, reason, stop, stopReason, context, updatedInput, systemMessage, Optional.empty());
    }

    private static boolean bool(JsonNode node, String field, boolean absent) throws Junk {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw new Junk("'" + field + "' must be true or false");
        }
        return value.booleanValue();
    }

    private static Optional<String> text(JsonNode node, String field) throws Junk {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new Junk("'" + field + "' must be a string");
        }
        return Optional.of(value.textValue());
    }

    private HookAnswer withContext(String text) {
        return new HookAnswer(block, reason, stop, stopReason, Optional.of(text), updatedInput, systemMessage, problem);
    }

    private static HookAnswer problem(String what) {
        return new HookAnswer(
                false,
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(what));
    }

    static String quote(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() > QUOTE_LIMIT ? Utf16.head(oneLine, QUOTE_LIMIT) + "…" : oneLine;
    }

    /** A field of the wrong type or value. */
    private static final class Junk extends Exception {
        private static final long serialVersionUID = 1L;

        Junk(String message) {
            super(message, null, false, false);
        }
    }
}
