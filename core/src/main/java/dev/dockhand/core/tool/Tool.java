package dev.dockhand.core.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * A capability offered to the model. The scheduler validates the model's arguments against {@link #parameterSchema},
 * binds them to {@code P} with Jackson, asks for approval according to {@link #kind}, then calls {@link #execute}.
 * Recoverable failures (missing file, no match, failed command) are returned as error results for the model to read;
 * an exception is a bug, which the scheduler still turns into an error result so the loop goes on.
 *
 * @param <P> the parameters record, bound from the model's JSON arguments
 */
public interface Tool<P> {

    /** The wire name the model calls, snake_case. */
    String name();

    /** What the tool does and when to use it, for the model. */
    String description();

    /** JSON Schema of the parameters: an object with {@code additionalProperties: false}. */
    ObjectNode parameterSchema();

    ToolKind kind();

    /**
     * Whether a call may run at the same time as the calls of the round next to it that say the same. Separate from
     * {@link #kind}: a tool can be read-only for approval and still unsafe to run twice at once (it keeps state).
     * Read-only tools are, unless they say otherwise.
     */
    /**
     * The group of tools the user may allow all at once for the session, when this tool belongs to one: an MCP
     * server's tools are allowed together as "every tool of this server". Empty for Dockhand's own tools.
     */
    default Optional<String> approvalGroup() {
        return Optional.empty();
    }

    default boolean concurrencySafe() {
        return kind() == ToolKind.READ;
    }

    /**
     * {@link #concurrencySafe()} for one call, given its raw arguments (not yet validated, perhaps not JSON): for a
     * tool whose calls differ, like {@code agent}, where a read-only sub-agent may run beside others and one that edits
     * may not. A tool that overrides it answers false for arguments it cannot read.
     */
    default boolean concurrencySafe(String arguments) {
        return concurrencySafe();
    }

    /**
     * Whether the tool keeps every result within the output budget itself, in pages that end on a whole line and say
     * where the next one starts (read_file). The scheduler's generic head-and-tail cut then never falls inside a
     * page; a tool that says so must honour {@link ToolContext#limits}.
     */
    default boolean pagesItsOutput() {
        return false;
    }

    Class<P> paramsType();

    /** Checks the schema cannot express; returns a message for the model when the parameters are unusable. */
    default Optional<String> validate(P params) {
        return Optional.empty();
    }

    /** The key argument in a few words, for one-line displays and approval prompts (a path, a command). */
    String summarize(P params);

    /**
     * What the call would change, shown when the user is asked to approve it: a unified diff for edits. Empty when
     * the summary says it all. Must not change anything.
     */
    default Optional<String> preview(P params, Workspace workspace) {
        return Optional.empty();
    }

    /**
     * The paths, as the model gave them, that the call would create or change; the scheduler asks the user before a
     * call writes a protected path (see {@link ProtectedPaths}), whatever the approval mode. Tools that write files
     * must list them.
     */
    default List<String> writes(P params) {
        return List.of();
    }

    ToolResult execute(P params, ToolContext context) throws InterruptedException;
}
