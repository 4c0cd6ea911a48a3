package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.Optional;

/**
 * The model's plan for the current task, replaced whole on each call and shown to the user. Session state only:
 * nothing is written anywhere, which is why it counts as READ.
 */
public final class TodoWriteTool extends BaseTool<TodoWriteTool.Params> {
    public static final String NAME = "todo_write";
    private static final String DESCRIPTION =
            "Record your plan for a task of several steps, and update it as you go (mark one step in_progress at"
                    + " a time, completed when done). The user sees it. Send the whole list each time.";

    /** One step of the plan. */
    public record Todo(String content, String status) {}

    /** The model's arguments: the whole list. */
    public record Params(List<Todo> todos) {}

    private static final ObjectNode SCHEMA = buildSchema();

    public TodoWriteTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
    }

    /** Read-only for approval, but each call replaces the one list: two at once would race for it. */
    @Override
    public boolean concurrencySafe() {
        return false;
    }

    private volatile List<Todo> current = List.of();

    private static ObjectNode buildSchema() {
        ObjectNode item = Json.object().put("type", "object");
        item.putObject("properties")
                .<ObjectNode>set("content", Schema.string("The step, in a few words."))
                .set("status", Schema.enumeration("Where the step is.", "pending", "in_progress", "completed"));
        item.putArray("required").add("content").add("status");
        item.put("additionalProperties", false);
        return Schema.object()
                .required("todos", Schema.array("The whole plan, in order; it replaces the previous one.", item))
                .build();
    }

    @Override
    public Optional<String> validate(Params params) {
        long inProgress = params.todos().stream()
                .filter(todo -> todo.status().equals("in_progress"))
                .count();
        return inProgress > 1
                ? Optional.of("only one step can be in_progress at a time; " + inProgress + " are.")
                : Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return params.todos().size() + (params.todos().size() == 1 ? " step" : " steps");
    }

    /** The plan as last written. */
    public List<Todo> current() {
        return current;
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        current = List.copyOf(params.todos());
        long done = current.stream()
                .filter(todo -> todo.status().equals("completed"))
                .count();
        StringBuilder list = new StringBuilder();
        for (Todo todo : current) {
            String mark =
                    switch (todo.status()) {
                        case "completed" -> "[x]";
                        case "in_progress" -> "[>]";
                        default -> "[ ]";
                    };
            list.append(mark).append(' ').append(todo.content()).append('\n');
        }
        String plan = list.toString().stripTrailing();
        return ToolResult.success(
                "Plan updated (" + done + " of " + current.size() + " done):\n" + plan,
                done + "/" + current.size() + " done\n" + plan);
    }
}
