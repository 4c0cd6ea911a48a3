package dev.dockhand.core.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The declaration part of a tool, given once in the constructor, so each tool class is about what it does: its
 * parameters record, checks, summary and {@code execute}.
 */
public abstract class BaseTool<P> implements Tool<P> {
    private final String name;
    private final String description;
    private final ObjectNode schema;
    private final ToolKind kind;
    private final Class<P> paramsType;

    protected BaseTool(String name, String description, ObjectNode schema, ToolKind kind, Class<P> paramsType) {
        this.name = name;
        this.description = description;
        this.schema = schema;
        this.kind = kind;
        this.paramsType = paramsType;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final ObjectNode parameterSchema() {
        return schema.deepCopy();
    }

    @Override
    public final ToolKind kind() {
        return kind;
    }

    @Override
    public final Class<P> paramsType() {
        return paramsType;
    }
}
