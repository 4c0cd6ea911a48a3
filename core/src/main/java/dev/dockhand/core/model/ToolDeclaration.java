package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Utf16;

/**
 * A tool as the model is told of it: name, what it does, and the JSON Schema of its parameters. The description may
 * come from an MCP server, so it is made well-formed ({@link Utf16#wellFormed}): it goes with every request.
 */
public record ToolDeclaration(String name, String description, ObjectNode parameters) {
    public ToolDeclaration {
        description = description == null ? null : Utf16.wellFormed(description);
    }
}
