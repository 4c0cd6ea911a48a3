package dev.dockhand.core.conversation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * The history sent to the model. It only ever grows by whole, valid steps: an assistant message with tool calls must
 * be followed by exactly one result per call, in the calls' order, before anything else is added. The real APIs
 * answer 400 to anything else, so a violation here is a bug and fails loudly instead of reaching the wire.
 */
public final class Conversation {
    private final List<Message> messages = new ArrayList<>();
    private final List<ToolCall> awaiting = new ArrayList<>();

    private Consumer<Message> observer = message -> {};

    public Conversation(String systemPrompt) {
        messages.add(new Message.System(systemPrompt));
    }

    /**
     * Sees every message added after the system prompt, once it is accepted (the session transcript). An observer
     * that throws is not the conversation's problem: the message stays added, and the failure is logged.
     */
    public synchronized void observe(Consumer<Message> observer) {
        this.observer = message -> {
            try {
                observer.accept(message);
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(Conversation.class).error("a conversation observer failed", e);
            }
        };
    }

    public synchronized void addUser(String text) {
        addUser(new Message.User(text));
    }

    /** Adds a user message, the user's own or one a hook added ({@link Message.User#fromHook}). */
    public synchronized void addUser(Message.User user) {
        requireNoPendingCalls("a user message");
        messages.add(user);
        observer.accept(user);
    }

    public synchronized void addAssistant(Message.Assistant reply) {
        requireNoPendingCalls("an assistant message");
        Set<String> ids = new HashSet<>();
        for (ToolCall call : reply.toolCalls()) {
            if (!ids.add(call.id())) {
                throw new IllegalStateException("duplicate tool call id in one reply: " + call.id());
            }
        }
        messages.add(reply);
        awaiting.addAll(reply.toolCalls());
        observer.accept(reply);
    }

    /** Adds the result of the next unanswered call; results must come in the calls' order. */
    public synchronized void addToolResult(Message.ToolResult result) {
        if (awaiting.isEmpty()) {
            throw new IllegalStateException("tool result " + result.toolCallId() + " answers no pending call");
        }
        ToolCall next = awaiting.get(0);
        if (!next.id().equals(result.toolCallId())) {
            throw new IllegalStateException(
                    "tool result " + result.toolCallId() + " out of order; expected " + next.id());
        }
        awaiting.remove(0);
        messages.add(result);
        observer.accept(result);
    }

    /** How the summary message of a compressed conversation begins, for the model and for tests. */
    public static final String SUMMARY_HEADER = "[Summary of the earlier conversation, written when it was compressed]";

    /** The assistant's reply to a summary, so user and assistant messages keep taking turns. */
    public static final String SUMMARY_ACKNOWLEDGED = "Understood; I will carry on from that summary.";

    /**
     * Replaces the messages before {@code keepFrom} (after the system prompt) with {@code summary}. The kept part must
     * start at a user or assistant message, so a tool call and its result are never separated; nothing may be
     * pending. The observer is not told: the transcript keeps the full history.
     */
    public synchronized void compact(int keepFrom, String summary) {
        requireNoPendingCalls("a compression");
        if (keepFrom < 2 || keepFrom >= messages.size()) {
            throw new IllegalArgumentException(
                    "nothing to compress before message " + keepFrom + " of " + messages.size());
        }
        Message first = messages.get(keepFrom);
        if (first instanceof Message.ToolResult) {
            throw new IllegalArgumentException("a compression may not separate a tool result from its call");
        }
        List<Message> kept = new ArrayList<>(messages.subList(keepFrom, messages.size()));
        Message system = messages.get(0);
        messages.clear();
        messages.add(system);
        messages.add(new Message.User(SUMMARY_HEADER + "\n\n" + summary.strip()));
        if (first instanceof Message.User) {
            messages.add(new Message.Assistant(SUMMARY_ACKNOWLEDGED, List.of()));
        }
        messages.addAll(kept);
    }

    /**
     * Answers every call still waiting with an error result carrying {@code content}, so the conversation can go on
     * after a round that did not finish (a crash, a failure inside Dockhand). Returns the calls it answered.
     */
    public synchronized List<ToolCall> answerPending(String content) {
        List<ToolCall> answered = List.copyOf(awaiting);
        for (ToolCall call : answered) {
            addToolResult(new Message.ToolResult(call.id(), call.name(), content, true));
        }
        return answered;
    }

    /** The calls of the last assistant message still waiting for a result, in order. */
    public synchronized List<ToolCall> pendingCalls() {
        return List.copyOf(awaiting);
    }

    /** A snapshot safe to send: refuses while calls are unanswered. */
    public synchronized List<Message> messages() {
        requireNoPendingCalls("a request");
        return List.copyOf(messages);
    }

    private void requireNoPendingCalls(String what) {
        if (!awaiting.isEmpty()) {
            throw new IllegalStateException(what + " while tool calls are unanswered: " + awaiting);
        }
    }
}
