package dev.dockhand.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * {@code agent}: hands a self-contained task to a sub-agent, which works on it with its own conversation and tools and
 * answers; the answer, with one line on what the sub-agent did, is the call's result. Starting one changes nothing by
 * itself (its calls are approved one by one), so the call is read-only for approval; it runs beside the round's other
 * calls only when its agent is read-only.
 */
public final class AgentTool implements Tool<AgentTool.Params> {
    /** The default agent when the call names none. */
    static final String DEFAULT_AGENT = "general";

    /**
     * The call's arguments.
     *
     * @param description the task in three to six words, for the user's display
     * @param prompt the whole task, with everything the sub-agent needs to know
     * @param subagent_type the agent's name; {@code general} when absent
     */
    public record Params(String description, String prompt, String subagent_type) {}

    private final SubAgents agents;
    private final String description;

    AgentTool(SubAgents agents) {
        this.agents = agents;
        StringBuilder text = new StringBuilder(
                "Starts a sub-agent on a self-contained task: it works with its own fresh context and tools, and its"
                        + " final answer comes back as this call's result (it sees nothing of this conversation, so"
                        + " the prompt must say everything it needs). Use it for searches and investigations that"
                        + " would fill your context, and start several in one reply to run independent read-only"
                        + " ones side by side. Available agents (subagent_type):");
        for (AgentDefinition definition : agents.definitions()) {
            text.append("\n- ").append(definition.name()).append(": ").append(definition.description());
        }
        this.description = text.toString();
    }

    @Override
    public String name() {
        return SubAgents.TOOL_NAME;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public ObjectNode parameterSchema() {
        String[] names =
                agents.definitions().stream().map(AgentDefinition::name).toArray(String[]::new);
        return Schema.object()
                .required("description", Schema.string("The task in three to six words, shown to the user."))
                .required(
                        "prompt",
                        Schema.string("The whole task for the sub-agent, with every detail it needs: it does not see"
                                + " this conversation."))
                .optional(
                        "subagent_type",
                        Schema.enumeration("Which agent does the task; " + DEFAULT_AGENT + " when absent.", names))
                .build();
    }

    @Override
    public ToolKind kind() {
        return ToolKind.READ;
    }

    /** Without the arguments, unknown: another agent's call could edit. */
    @Override
    public boolean concurrencySafe() {
        return false;
    }

    @Override
    public boolean concurrencySafe(String arguments) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(arguments);
            if (parsed == null || !parsed.isObject()) {
                return false;
            }
            return definition(parsed.path("subagent_type").asText(null))
                    .map(agents::readOnly)
                    .orElse(false);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | UncheckedIOException e) {
            return false;
        }
    }

    @Override
    public Class<Params> paramsType() {
        return Params.class;
    }

    @Override
    public Optional<String> validate(Params params) {
        if (params.description().isBlank() || params.prompt().isBlank()) {
            return Optional.of("description and prompt must not be blank.");
        }
        if (definition(params.subagent_type()).isEmpty()) {
            return Optional.of("there is no agent "
                    + (params.subagent_type() == null ? DEFAULT_AGENT : "\"" + params.subagent_type() + "\"")
                    + "; the agents are: "
                    + String.join(
                            ", ",
                            agents.definitions().stream()
                                    .map(AgentDefinition::name)
                                    .toList())
                    + ".");
        }
        return Optional.empty();
    }

    private Optional<AgentDefinition> definition(String name) {
        return agents.find(name == null ? DEFAULT_AGENT : name);
    }

    @Override
    public String summarize(Params params) {
        return (params.subagent_type() == null ? DEFAULT_AGENT : params.subagent_type()) + ": " + params.description();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        AgentDefinition definition = definition(params.subagent_type()).orElseThrow();
        SubAgentRun run =
                agents.run(definition, params.description(), params.prompt(), context.callId(), context.cancellation());
        return switch (run.outcome()) {
            case "answered" -> ToolResult.success(run.answer() + "\n\n[" + run.summary() + "]", run.summary());
            case "cancelled" -> ToolResult.error(
                    ToolErrorType.CANCELLED,
                    "The user cancelled sub-agent " + run.id() + " before it answered. " + run.summary());
            default -> ToolResult.error(
                    ToolErrorType.EXECUTION_FAILED,
                    "Sub-agent " + run.id() + " ended without an answer: " + ending(run) + " " + run.summary());
        };
    }

    private static String ending(SubAgentRun run) {
        return switch (run.outcome()) {
            case "turn_limit" -> "it reached its turn limit, or the run's, while it still wanted tools.";
            case "empty_reply" -> "its model's last reply was empty.";
            case "loop_detected" -> "it repeated the same calls and was stopped.";
            case "budget_spent" -> "the run reached its spending limit.";
            case "provider_failed" -> "its model request failed (" + run.answer() + ").";
            default -> run.outcome() + ".";
        };
    }
}
