package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A tool as the model is told of it: name, what it does, and the JSON Schema of its parameters. */
public record ToolDeclaration(String name, String description, ObjectNode parameters) {}
