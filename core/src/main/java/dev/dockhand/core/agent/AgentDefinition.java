package dev.dockhand.core.agent;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An agent the main agent can hand a task to with the {@code agent} tool: a built-in one, or one read from a
 * definition file.
 *
 * @param name what {@code subagent_type} names it by: lower-case letters, digits, {@code -} and {@code _}
 * @param description when to use it, for the main model (the {@code agent} tool's description lists it)
 * @param tools the names of the main agent's tools it may use; empty means all of them (but {@code agent}: depth 1)
 * @param model the model it talks to, of the session's provider; empty means the main agent's
 * @param maxTurns the most model requests it may send for its task
 * @param dataPolicy what of its conversation the session keeps
 * @param systemPrompt its instructions
 * @param source where it was defined: {@code built-in} or a file's path
 */
public record AgentDefinition(
        String name,
        String description,
        Optional<List<String>> tools,
        Optional<String> model,
        int maxTurns,
        DataPolicy dataPolicy,
        String systemPrompt,
        String source) {
    public static final int DEFAULT_MAX_TURNS = 25;
    public static final int MAX_TURNS_LIMIT = 200;
    private static final String MCP = "mcp__";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,39}");

    /** @throws IllegalArgumentException with a clause saying what is wrong, for a definition that cannot be used */
    public AgentDefinition {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("its name must be 1 to 40 lower-case letters, digits, - or _, starting"
                    + " with a letter, not " + (name == null ? "missing" : "\"" + name + "\""));
        }
        if (description == null || description.isBlank()) {
            throw new IllegalArgumentException("it has no description, which the main model needs to choose it");
        }
        if (maxTurns < 1 || maxTurns > MAX_TURNS_LIMIT) {
            throw new IllegalArgumentException(
                    "its max_turns must be from 1 to " + MAX_TURNS_LIMIT + ", not " + maxTurns);
        }
        if (systemPrompt == null || systemPrompt.isBlank()) {
            throw new IllegalArgumentException("its body, the agent's instructions, is empty");
        }
        tools = tools.map(List::copyOf);
        description = description.strip();
        systemPrompt = systemPrompt.strip();
    }

    /** This agent with {@code model} (empty: the main agent's). */
    public AgentDefinition withModel(Optional<String> model) {
        return new AgentDefinition(name, description, tools, model, maxTurns, dataPolicy, systemPrompt, source);
    }

    /**
     * Whether the agent may use the tool {@code name}: every tool when its list is absent, else the tools it names,
     * where {@code mcp__server} (or {@code mcp__server__*}) names every tool of that MCP server, present and to come.
     */
    public boolean allows(String name) {
        if (tools.isEmpty()) {
            return true;
        }
        for (String listed : tools.get()) {
            String server = listed.endsWith("__*") ? listed.substring(0, listed.length() - 3) : listed;
            if (listed.equals(name)
                    || (server.startsWith(MCP)
                            && server.indexOf("__", MCP.length()) < 0
                            && name.startsWith(server + "__"))) {
                return true;
            }
        }
        return false;
    }

    /** The built-in agents: {@code explore} (read-only search) and {@code general} (the main agent's tools). */
    public static List<AgentDefinition> builtIns() {
        return List.of(
                new AgentDefinition(
                        "explore",
                        "Searches and reads the project without changing anything, and answers with findings and the"
                                + " file paths they come from. Use it for questions that need many searches or reads,"
                                + " so they stay out of your context; give it a precise question.",
                        Optional.of(List.of("read_file", "list_directory", "glob", "grep")),
                        Optional.empty(),
                        DEFAULT_MAX_TURNS,
                        DataPolicy.FULL,
                        "You are explore, a read-only research agent working for another agent in the user's project."
                                + " You can read files, list folders, and search with glob and grep; you cannot"
                                + " change anything or run commands.\n"
                                + "- Search broadly first, then read what matters; stop when you can answer.\n"
                                + "- Answer with your findings: each fact with the file path (and line numbers where"
                                + " useful) it comes from. Be concise: your answer is all the other agent sees of"
                                + " your work.",
                        "built-in"),
                new AgentDefinition(
                        "general",
                        "A general-purpose agent with your tools (but this one) for a self-contained task: a change, a"
                                + " fix, an investigation that needs commands. Give it everything it needs to know in"
                                + " the prompt.",
                        Optional.empty(),
                        Optional.empty(),
                        DEFAULT_MAX_TURNS,
                        DataPolicy.FULL,
                        "You are a general-purpose agent working for another agent in the user's project, on one"
                                + " self-contained task.\n"
                                + "- Read the relevant files before changing them; follow the project's existing"
                                + " style.\n"
                                + "- Calls that edit files or run commands may need the user's approval. If one is"
                                + " refused, do not repeat it unchanged.\n"
                                + "- Answer with what you found or changed (with file paths) and anything left undone:"
                                + " your answer is all the other agent sees of your work.",
                        "built-in"));
    }
}
