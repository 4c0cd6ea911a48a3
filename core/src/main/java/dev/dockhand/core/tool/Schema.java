package dev.dockhand.core.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;

/** Builds the small JSON Schemas tools declare, so each declaration reads as a list of described fields. */
public final class Schema {
    private final ObjectNode root = Json.object();
    private final ObjectNode properties;
    private final ArrayNode required;

    private Schema() {
        root.put("type", "object");
        properties = root.putObject("properties");
        required = root.putArray("required");
        root.put("additionalProperties", false);
    }

    public static Schema object() {
        return new Schema();
    }

    public Schema required(String name, ObjectNode property) {
        properties.set(name, property);
        required.add(name);
        return this;
    }

    public Schema optional(String name, ObjectNode property) {
        properties.set(name, property);
        return this;
    }

    public ObjectNode build() {
        ObjectNode copy = root.deepCopy();
        if (required.isEmpty()) {
            // Some providers reject an empty "required" array; leaving it out means the same.
            copy.remove("required");
        }
        return copy;
    }

    public static ObjectNode string(String description) {
        return Json.object().put("type", "string").put("description", description);
    }

    public static ObjectNode integer(String description, long minimum) {
        return Json.object()
                .put("type", "integer")
                .put("description", description)
                .put("minimum", minimum);
    }

    public static ObjectNode integer(String description, long minimum, long maximum) {
        return integer(description, minimum).put("maximum", maximum);
    }

    public static ObjectNode bool(String description) {
        return Json.object().put("type", "boolean").put("description", description);
    }

    public static ObjectNode enumeration(String description, String... values) {
        ObjectNode node = string(description);
        ArrayNode allowed = node.putArray("enum");
        for (String value : values) {
            allowed.add(value);
        }
        return node;
    }

    public static ObjectNode array(String description, ObjectNode items) {
        ObjectNode node = Json.object().put("type", "array").put("description", description);
        node.set("items", items);
        return node;
    }
}
