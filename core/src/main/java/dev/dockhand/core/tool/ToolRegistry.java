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
    private volatile LateTools late = LateTools.NONE;
    private List<ToolDeclaration> fixedDeclarations;
    private List<Tool<?>> declaredLate;
    private List<ToolDeclaration> declarations;

    /**
     * Tools that come and go during a session, after the fixed ones: an MCP server's, which join when the server has
     * started and change when it says its list changed. {@link #current} returns the same list object until the set
     * changes, so the declarations are rebuilt only then.
     */
    public interface LateTools {
        LateTools NONE = List::of;

        List<Tool<?>> current();

        /** The tool {@code name}, waiting when it may still come (its server is starting); by default, no wait. */
        default Optional<Tool<?>> await(String name) {
            return current().stream().filter(tool -> tool.name().equals(name)).findFirst();
        }
    }

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

    /** Adds tools that come and go during the session; their names must not be those of the fixed tools. */
    public void setLateTools(LateTools late) {
        this.late = late;
    }

    public Optional<Tool<?>> find(String name) {
        Tool<?> fixed = tools.get(name);
        return fixed != null ? Optional.of(fixed) : late.await(name);
    }

    /** Why the user kept {@code name} out of this session, when they did. */
    public Optional<String> withheld(String name) {
        return tools.containsKey(name) ? Optional.empty() : Optional.ofNullable(withheld.get(name));
    }

    public List<Tool<?>> tools() {
        List<Tool<?>> all = new ArrayList<>(tools.values());
        all.addAll(late.current());
        return List.copyOf(all);
    }

    public List<String> names() {
        return tools().stream().map(Tool::name).toList();
    }

    /**
     * What the model is told of the tools, the late ones included as they are now. The same list object comes back
     * until the late tools change, so a caller can tell a change by identity.
     */
    public synchronized List<ToolDeclaration> declarations() {
        if (fixedDeclarations == null) {
            fixedDeclarations = declare(tools.values());
        }
        List<Tool<?>> lateNow = late.current();
        if (declarations == null || lateNow != declaredLate) {
            List<ToolDeclaration> all = new ArrayList<>(fixedDeclarations);
            all.addAll(declare(lateNow));
            declarations = List.copyOf(all);
            declaredLate = lateNow;
        }
        return declarations;
    }

    private static List<ToolDeclaration> declare(java.util.Collection<Tool<?>> tools) {
        List<ToolDeclaration> declarations = new ArrayList<>();
        for (Tool<?> tool : tools) {
            declarations.add(new ToolDeclaration(tool.name(), tool.description(), tool.parameterSchema()));
        }
        return declarations;
    }
}
