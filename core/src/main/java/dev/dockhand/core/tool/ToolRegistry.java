package dev.dockhand.core.tool;

import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The tools offered in a session, in a fixed order; two tools of one name are refused. It also knows the tools the
 * user kept out of the session, and why, so a call of one is answered with that rather than "unknown tool".
 */
public final class ToolRegistry {
    private final Map<String, Tool<?>> tools = new LinkedHashMap<>();
    private final Map<String, String> withheld;
    private final List<Tool<?>> withheldTools;
    private List<ToolDeclaration> withheldDeclarations;
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
        this(tools, withheld, List.of());
    }

    /**
     * @param withheld as above
     * @param withheldTools the withheld tools themselves, those the caller has: a request that offers no tool while
     *     its history holds calls to them still declares them, as they are, for the model not to call ({@link
     *     #withheldDeclarations})
     */
    public ToolRegistry(
            List<? extends Tool<?>> tools, Map<String, String> withheld, List<? extends Tool<?>> withheldTools) {
        this.withheld = Map.copyOf(withheld);
        this.withheldTools = List.copyOf(withheldTools);
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

    /**
     * A registry of this one's tools that {@code allowed} accepts by name, the late ones included as they come and go
     * (a sub-agent's: an MCP server that starts after the sub-agent did still offers it its tools).
     *
     * @param withheld as for the constructor, for the fixed tools left out
     */
    public ToolRegistry narrowed(Predicate<String> allowed, Map<String, String> withheld) {
        List<Tool<?>> fixed = new ArrayList<>();
        List<Tool<?>> left = new ArrayList<>();
        for (Tool<?> tool : tools.values()) {
            (allowed.test(tool.name()) ? fixed : left).add(tool);
        }
        ToolRegistry narrowed = new ToolRegistry(fixed, withheld, left);
        narrowed.setLateTools(new NarrowedLateTools(this, allowed));
        return narrowed;
    }

    /** Another registry's late tools that a predicate accepts: the same list object while theirs is unchanged. */
    private static final class NarrowedLateTools implements LateTools {
        private final ToolRegistry source;
        private final Predicate<String> allowed;
        private List<Tool<?>> seen;
        private List<Tool<?>> kept = List.of();

        NarrowedLateTools(ToolRegistry source, Predicate<String> allowed) {
            this.source = source;
            this.allowed = allowed;
        }

        @Override
        public synchronized List<Tool<?>> current() {
            List<Tool<?>> now = source.late.current();
            if (now != seen) {
                seen = now;
                kept = now.stream().filter(tool -> allowed.test(tool.name())).toList();
            }
            return kept;
        }

        @Override
        public Optional<Tool<?>> await(String name) {
            return allowed.test(name) ? source.late.await(name) : Optional.empty();
        }
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

    /**
     * What the model would be told of the withheld tools the registry has: a request that offers no tool declares
     * those its history calls, and lets the model call none (Anthropic refuses tool calls in a history without tools).
     */
    public synchronized List<ToolDeclaration> withheldDeclarations() {
        if (withheldDeclarations == null) {
            withheldDeclarations = declare(withheldTools);
        }
        return withheldDeclarations;
    }

    private static List<ToolDeclaration> declare(java.util.Collection<Tool<?>> tools) {
        List<ToolDeclaration> declarations = new ArrayList<>();
        for (Tool<?> tool : tools) {
            declarations.add(new ToolDeclaration(tool.name(), tool.description(), tool.parameterSchema()));
        }
        return List.copyOf(declarations);
    }
}
