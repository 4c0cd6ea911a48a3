package dev.dockhand.core.tool;

import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools offered in a session, in a fixed order; two tools of one name are refused. It also knows the tools the
 * user kept out of the session, and why, so a call of one is answered with that rather than "unknown tool".
 */
public final class ToolRegistry {
    private final Map<String, Tool<?>> tools = new LinkedHashMap<>();
    private final Map<String, String> withheld;

    public ToolRegistry(List<? extends Tool<?>> tools) {
        this(tools, Map.of());
    }

    /**
     * @param withheld the tools not offered because the user said so, each with the clause that says how, like "the
     *     user excluded it (--excluded-tools)"
     */
    public ToolRegistry(List<? extends Tool<?>> tools, Map<String, String> withheld) {
        this.withheld = Map.copyOf(withheld);
        for (Tool<?> tool : tools) {
            Tool<?> previous = this.tools.putIfAbsent(tool.name(), tool);
            if (previous != null) {
                throw new IllegalArgumentException("two tools are named " + tool.name() + ": "
                        + previous.getClass().getName() + " and "
                        + tool.getClass().getName());
            }
        }
    }

    public Optional<Tool<?>> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Why the user kept {@code name} out of this session, when they did. */
    public Optional<String> withheld(String name) {
        return tools.containsKey(name) ? Optional.empty() : Optional.ofNullable(withheld.get(name));
    }

    public List<Tool<?>> tools() {
        return List.copyOf(tools.values());
    }

    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    public List<ToolDeclaration> declarations() {
        List<ToolDeclaration> declarations = new ArrayList<>();
        for (Tool<?> tool : tools.values()) {
            declarations.add(new ToolDeclaration(tool.name(), tool.description(), tool.parameterSchema()));
        }
        return declarations;
    }
}
