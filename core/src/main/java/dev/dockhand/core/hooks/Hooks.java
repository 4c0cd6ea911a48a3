package dev.dockhand.core.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.TurnHooks;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CallHooks;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.LoggerFactory;

/**
 * Runs a session's hooks and turns their answers into what the scheduler and the loop act on. Each hook gets a JSON
 * object on stdin with Claude Code's field names ({@code session_id}, {@code transcript_path}, {@code cwd},
 * {@code hook_event_name}, then the event's own: {@code tool_name}, {@code tool_input}, {@code tool_use_id},
 * {@code permission_mode}, {@code tool_response}, {@code prompt}, {@code stop_hook_active},
 * {@code last_assistant_message}, {@code source}), runs in the workspace with {@code DOCKHAND_PROJECT_DIR} and
 * {@code CLAUDE_PROJECT_DIR} set to it, and answers as {@link HookAnswer} reads. The hooks of one event run one after
 * the other in the settings' order; a PreToolUse hook sees the arguments as the hooks before it left them, and the
 * first that blocks ends the run.
 *
 * <p>A hook that cannot start, fails, times out or prints junk is reported (a {@link AgentEvent.Warning} and a log
 * line) and changes nothing. What a hook adds to what the model reads is cut at {@link #TEXT_LIMIT} characters.
 */
public final class Hooks implements CallHooks, TurnHooks {
    /** The most of one hook's text that reaches the model. */
    public static final int TEXT_LIMIT = 4_000;
    /** What a hook says reaches the model as a tool's output would: redacted (a hook may print a secret). */
    private volatile Redactor redactor = Redactor.OFF;

    /** How much of a command a report names. */
    private static final int COMMAND_LIMIT = 80;

    private final HookDefinitions definitions;
    private final HookProcess process;
    private final Path workspace;
    private final AgentEventSink events;
    private final Map<String, String> environment;
    private volatile String sessionId = "";
    private volatile Path transcript;
    /** What SessionStart hooks said, waiting for the conversation's next prompt. */
    private final AtomicReference<String> sessionContext = new AtomicReference<>();

    public Hooks(HookDefinitions definitions, HookProcess process, Path workspace, AgentEventSink events) {
        this.definitions = definitions;
        this.process = process;
        this.workspace = workspace;
        this.events = events;
        this.environment = Map.of(
                "DOCKHAND_PROJECT_DIR", workspace.toString(),
                // Claude Code's name, so that hook scripts written for it find the project the same way.
                "CLAUDE_PROJECT_DIR", workspace.toString());
    }

    /** The session's redactor, which what the hooks give the model passes through. */
    public void setRedactor(Redactor redactor) {
        this.redactor = java.util.Objects.requireNonNull(redactor, "redactor");
    }

    /** The conversation the hooks now serve: its id and transcript, given to every hook. */
    public void session(String id, Path transcriptFile) {
        this.sessionId = id;
        this.transcript = transcriptFile;
        sessionContext.set(null);
    }

    /**
     * Runs the SessionStart hooks for {@code source} ({@code startup}, {@code resume} or {@code clear}, which their
     * matcher is tested against); what they add goes with the conversation's next prompt.
     */
    public void sessionStart(String source, Cancellation cancel) {
        try {
            List<String> contexts = new ArrayList<>();
            for (HookDefinitions.Hook hook : definitions.matching(HookEvent.SESSION_START, source)) {
                HookAnswer answer = run(hook, input(HookEvent.SESSION_START).put("source", source), cancel);
                // Claude Code shows a SessionStart hook's exit-2 stderr to the user only: there is nothing to block.
                answer.reason()
                        .filter(reason -> answer.block())
                        .ifPresent(reason -> warn(describe(hook) + " said: " + HookAnswer.quote(reason)));
                answer.context().ifPresent(contexts::add);
            }
            sessionContext.set(contexts.isEmpty() ? null : block(HookEvent.SESSION_START, contexts));
        } catch (RuntimeException e) {
            failed(HookEvent.SESSION_START, e);
        }
    }

    @Override
    public Before beforeCall(ToolCall call, ApprovalMode mode, Cancellation cancel) {
        List<HookDefinitions.Hook> hooks = definitions.matching(HookEvent.PRE_TOOL_USE, call.name());
        if (hooks.isEmpty()) {
            return Before.GO_ON;
        }
        JsonNode arguments = arguments(call);
        boolean changed = false;
        List<String> notes = new ArrayList<>();
        for (HookDefinitions.Hook hook : hooks) {
            if (cancel.isCancelled()) {
                break;
            }
            ObjectNode input = toolInput(HookEvent.PRE_TOOL_USE, call, arguments, mode);
            HookAnswer answer = run(hook, input, cancel);
            if (answer.block() || answer.stop()) {
                String reason = answer.reason().or(answer::stopReason).orElse("(the hook gave no reason)");
                return new Before.Blocked(bounded(reason));
            }
            if (answer.updatedInput().isPresent()) {
                arguments = answer.updatedInput().get();
                changed = true;
            }
            answer.context().ifPresent(notes::add);
        }
        if (changed) {
            notes.add(
                    0,
                    "A PreToolUse hook changed this call's arguments; it ran with "
                            + Json.write(redactor.redact(arguments)));
        }
        return new Before.GoOn(
                changed ? Optional.of(Json.write(arguments)) : Optional.empty(),
                notes.isEmpty() ? Optional.empty() : Optional.of(block(HookEvent.PRE_TOOL_USE, notes)));
    }

    @Override
    public Optional<String> afterCall(ToolCall call, ToolResult result, ApprovalMode mode, Cancellation cancel) {
        List<HookDefinitions.Hook> hooks = definitions.matching(HookEvent.POST_TOOL_USE, call.name());
        List<String> notes = new ArrayList<>();
        for (HookDefinitions.Hook hook : hooks) {
            if (cancel.isCancelled()) {
                break;
            }
            ObjectNode input = toolInput(HookEvent.POST_TOOL_USE, call, arguments(call), mode);
            ObjectNode response = input.putObject("tool_response");
            response.put("content", result.llmContent());
            response.put("is_error", result.isError());
            HookAnswer answer = run(hook, input, cancel);
            // The call already ran: a block cannot undo it, so its reason is told to the model like a note.
            answer.reason().filter(reason -> answer.block()).ifPresent(notes::add);
            answer.context().ifPresent(notes::add);
        }
        return notes.isEmpty() ? Optional.empty() : Optional.of(block(HookEvent.POST_TOOL_USE, notes));
    }

    @Override
    public Prompt promptSubmitted(String prompt, Cancellation cancel) {
        try {
            List<String> contexts = new ArrayList<>();
            for (HookDefinitions.Hook hook : definitions.matching(HookEvent.USER_PROMPT_SUBMIT, null)) {
                HookAnswer answer =
                        run(hook, input(HookEvent.USER_PROMPT_SUBMIT).put("prompt", prompt), cancel);
                if (answer.block() || answer.stop()) {
                    String reason = answer.reason().or(answer::stopReason).orElse("(the hook gave no reason)");
                    warn("A UserPromptSubmit hook (" + command(hook) + ") blocked the prompt: "
                            + bounded(reason.strip()));
                    return new Prompt.Blocked(reason);
                }
                answer.context().ifPresent(contexts::add);
            }
            StringBuilder text = new StringBuilder(prompt);
            String started = sessionContext.getAndSet(null);
            if (started != null) {
                text.append("\n\n").append(started);
            }
            if (!contexts.isEmpty()) {
                text.append("\n\n").append(block(HookEvent.USER_PROMPT_SUBMIT, contexts));
            }
            return new Prompt.Accepted(text.toString());
        } catch (RuntimeException e) {
            failed(HookEvent.USER_PROMPT_SUBMIT, e);
            return new Prompt.Accepted(prompt);
        }
    }

    @Override
    public Optional<String> stopping(String answer, int continued, Cancellation cancel) {
        try {
            List<String> reasons = new ArrayList<>();
            boolean stop = false;
            for (HookDefinitions.Hook hook : definitions.matching(HookEvent.STOP, null)) {
                ObjectNode input = input(HookEvent.STOP)
                        .put("stop_hook_active", continued > 0)
                        .put("last_assistant_message", answer);
                HookAnswer said = run(hook, input, cancel);
                stop |= said.stop();
                said.reason().filter(reason -> said.block()).ifPresent(reasons::add);
            }
            if (reasons.isEmpty() || stop || cancel.isCancelled()) {
                return Optional.empty();
            }
            String joined = redactor.redact(bounded(String.join("\n\n", reasons).strip()))
                    .text();
            if (continued >= definitions.stopLimit()) {
                warn("A Stop hook asked the model to go on, but this turn already went on " + continued
                        + " time(s) for Stop hooks (stopHookLimit " + definitions.stopLimit() + "), so it ends: "
                        + HookAnswer.quote(joined));
                return Optional.empty();
            }
            warn("A Stop hook asked the model to go on: " + HookAnswer.quote(joined));
            return Optional.of("A Stop hook did not let you end the turn yet. Its reason:\n\n" + joined);
        } catch (RuntimeException e) {
            failed(HookEvent.STOP, e);
            return Optional.empty();
        }
    }

    /** Runs one hook; whatever goes wrong is reported and answers nothing. */
    private HookAnswer run(HookDefinitions.Hook hook, ObjectNode input, Cancellation cancel) {
        HookProcess.Finished finished;
        try {
            finished = process.run(
                    new HookProcess.Request(hook.command(), workspace, Json.write(input), hook.timeout(), environment),
                    cancel);
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(Hooks.class).warn("the {} could not start", describe(hook), e);
            warn(describe(hook) + " could not start (" + e.getMessage() + "); it was skipped.");
            return HookAnswer.NOTHING;
        }
        HookAnswer answer = HookAnswer.read(hook.event(), finished, hook.timeout());
        answer.problem().ifPresent(problem -> {
            LoggerFactory.getLogger(Hooks.class)
                    .warn("the {} {}", describe(hook), redactor.redact(problem).text());
            warn(describe(hook) + " " + problem + "; Dockhand went on without it.");
        });
        answer.systemMessage().ifPresent(message -> warn(hook.event().wireName() + " hook: " + bounded(message)));
        return answer;
    }

    private ObjectNode input(HookEvent event) {
        ObjectNode input = Json.object().put("session_id", sessionId);
        Path file = transcript;
        if (file != null) {
            input.put("transcript_path", file.toString());
        }
        return input.put("cwd", workspace.toString()).put("hook_event_name", event.wireName());
    }

    private ObjectNode toolInput(HookEvent event, ToolCall call, JsonNode arguments, ApprovalMode mode) {
        ObjectNode input = input(event).put("permission_mode", mode.cliName()).put("tool_name", call.name());
        input.set("tool_input", arguments);
        return input.put("tool_use_id", call.id());
    }

    /** The call's arguments as JSON; they passed validation, so they parse, but a hook must not fail on them. */
    private static JsonNode arguments(ToolCall call) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(call.arguments());
            return parsed == null ? Json.object() : parsed;
        } catch (IOException e) {
            return Json.MAPPER.getNodeFactory().textNode(call.arguments());
        }
    }

    /** Texts hooks of {@code event} gave the model, each bounded, in one block that says where they come from. */
    private String block(HookEvent event, List<String> texts) {
        StringBuilder block = new StringBuilder("<hook_context event=\"" + event.wireName() + "\">\n");
        for (String text : texts) {
            // Redacted before it is cut, so that no secret is cut in two and half of it left in clear.
            block.append(bounded(redactor.redact(text.strip()).text())).append('\n');
        }
        return block.append("</hook_context>").toString();
    }

    /** {@code text} cut at {@link #TEXT_LIMIT}, saying so. */
    static String bounded(String text) {
        if (text.length() <= TEXT_LIMIT) {
            return text;
        }
        String kept = Utf16.head(text, TEXT_LIMIT);
        return kept + "\n[… the hook printed " + text.length() + " characters; the first " + kept.length()
                + " are kept]";
    }

    /**
     * Tells the user; redacted, since a hook is given a call's secret values and its output, quoted here, can repeat
     * them (warnings reach stream-json output and CI logs).
     */
    private void warn(String message) {
        events.accept(new AgentEvent.Warning(redactor.redact(message).text()));
    }

    private void failed(HookEvent event, RuntimeException e) {
        LoggerFactory.getLogger(Hooks.class).error("running the {} hooks failed", event.wireName(), e);
        warn("Running the " + event.wireName() + " hooks failed inside Dockhand (" + e + "); the turn went on"
                + " without them.");
    }

    private static String describe(HookDefinitions.Hook hook) {
        return "The " + hook.event().wireName() + " hook " + command(hook);
    }

    private static String command(HookDefinitions.Hook hook) {
        String oneLine = hook.command().replaceAll("\\s+", " ").strip();
        return "`" + (oneLine.length() > COMMAND_LIMIT ? Utf16.head(oneLine, COMMAND_LIMIT) + "…" : oneLine) + "`";
    }
}
