package dev.dockhand.core.tool;

import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tools offered in a session, in a fixed order; two tools of one name are refused. */
public final class ToolRegistry {
    private final Map<String, Tool<?>> tools = new LinkedHashMap<>();

    public ToolRegistry(List<? extends Tool<?>> tools) {
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
