package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.Map;
import java.util.Set;

/**
 * Converts a tool's JSON Schema to the subset of OpenAPI 3.0 schema Gemini accepts: it rejects the whole request
 * over keywords such as {@code additionalProperties} or {@code $schema}, so only the known ones are kept.
 */
final class GeminiSchemas {
    private static final Set<String> KEPT = Set.of(
            "type",
            "description",
            "enum",
            "format",
            "nullable",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern");

    private GeminiSchemas() {}

    static ObjectNode convert(JsonNode schema) {
        ObjectNode converted = Json.object();
        for (Map.Entry<String, JsonNode> field : schema.properties()) {
            switch (field.getKey()) {
                case "properties" -> {
                    ObjectNode properties = converted.putObject("properties");
                    field.getValue().properties().forEach(p -> properties.set(p.getKey(), convert(p.getValue())));
                }
                case "items" -> converted.set("items", convert(field.getValue()));
                case "required" -> {
                    if (!field.getValue().isEmpty()) {
                        converted.set("required", field.getValue().deepCopy());
                    }
                }
                default -> {
                    if (KEPT.contains(field.getKey())) {
                        converted.set(field.getKey(), field.getValue().deepCopy());
                    }
                }
            }
        }
        return converted;
    }
}
