package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;

/**
 * Records the workspace before each call that may change it (an edit, a command, an MCP tool that is not read-only)
 * and, once the call has finished, what it changed. The scheduler asks it around such calls; a failure here is
 * reported and never keeps a call from running or from being answered.
 */
public interface CallCheckpoints {
    /** Records nothing. */
    CallCheckpoints NONE = (call, summary) -> () -> {};

    /**
     * Takes a checkpoint before {@code call} runs.
     *
     * @return what to do once the call has finished
     * @throws Exception when no checkpoint could be taken; the call runs all the same
     */
    Taken before(ToolCall call, String summary) throws Exception;

    /** A checkpoint taken before a call, waiting for the call to finish. */
    @FunctionalInterface
    interface Taken {
        /** Records what the call changed. */
        void after() throws Exception;
    }
}
