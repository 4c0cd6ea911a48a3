package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts a tool's JSON Schema to the subset of OpenAPI 3.0 schema Gemini accepts in {@code parameters}: it rejects
 * the whole request over keywords such as {@code additionalProperties} or {@code $schema}, so only the known ones are
 * kept, and over values its {@code Schema} message cannot hold, which MCP servers send as a matter of course:
 *
 * <ul>
 *   <li>{@code type} is one value: {@code ["string","null"]} (zod's optional) becomes {@code type: string,
 *       nullable: true}; several types become {@code anyOf}, one branch a type, each with the keywords of its type.
 *   <li>{@code enum} is a list of strings, allowed only with {@code type: string} ("Invalid value at
 *       '…enum[0]' (TYPE_STRING), 1", microsoft/azure-devops-mcp#145; "enum: only allowed for STRING type",
 *       JetBrains/mcp-jetbrains#71). A {@code null} value makes the schema nullable. An enum of other values (numbers,
 *       booleans) keeps its type and goes into the description as "One of: 1, 2, 4.": turned into strings, the model
 *       would send {@code "2"} where the tool's own schema, which its arguments are checked against, wants {@code 2}.
 * </ul>
 *
 * <p>Why not {@code parametersJsonSchema}, which takes JSON Schema: its reference says only that the schema is JSON
 * Schema describing an object, not which keywords and values it takes, and clients that send MCP schemas through it
 * still report 400s ({@code $schema}, unresolved {@code $ref}); the {@code Schema} message's fields and their types
 * are documented one by one.
 */
final class GeminiSchemas {
    private static final Set<String> KEPT = Set.of(
            "description",
            "format",
            "nullable",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern");

    /** The keywords that belong to one type, which a branch of that type carries when a schema has several types. */
    private static final Map<String, Set<String>> OF_TYPE = Map.of(
            "array", Set.of("items", "minItems", "maxItems"),
            "object", Set.of("properties", "required"),
            "string", Set.of("enum", "format", "minLength", "maxLength", "pattern"),
            "number", Set.of("format", "minimum", "maximum"),
            "integer", Set.of("format", "minimum", "maximum"));

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
        Types types = Types.of(schema.get("type"));
        enumeration(schema.get("enum"), types, converted);
        if (types.nullable) {
            converted.put("nullable", true);
        }
        return typed(converted, types.names);
    }

    /** The types a schema's {@code type} names, without {@code null}, and whether {@code null} is one of them. */
    private static final class Types {
        final List<String> names = new ArrayList<>();
        boolean nullable;

        static Types of(JsonNode type) {
            Types types = new Types();
            if (type != null && type.isTextual()) {
                types.add(type.asText());
            } else if (type != null && type.isArray()) {
                type.forEach(name -> {
                    if (name.isTextual()) {
                        types.add(name.asText());
                    }
                });
            }
            return types;
        }

        private void add(String name) {
            if (name.equals("null")) {
                nullable = true;
            } else if (!names.contains(name)) {
                names.add(name);
            }
        }
    }

    /**
     * Sets {@code enum} on {@code converted} when its values are strings and the type is string (or none, which then
     * becomes string); otherwise writes the values into the description and leaves the types as given, or, when none
     * is given, as the values' own type.
     */
    private static void enumeration(JsonNode values, Types types, ObjectNode converted) {
        if (values == null || !values.isArray()) {
            return;
        }
        List<JsonNode> kept = new ArrayList<>();
        values.forEach(value -> {
            if (value.isNull()) {
                types.nullable = true;
            } else {
                kept.add(value);
            }
        });
        if (kept.isEmpty()) {
            return;
        }
        if (kept.stream().allMatch(JsonNode::isTextual)
                && (types.names.isEmpty() || types.names.equals(List.of("string")))) {
            kept.forEach(converted.putArray("enum")::add);
            types.names.clear();
            types.names.add("string");
            return;
        }
        List<String> written = new ArrayList<>();
        Set<String> kinds = new LinkedHashSet<>();
        for (JsonNode value : kept) {
            written.add(Json.write(value));
            kinds.add(kind(value));
        }
        if (kinds.equals(Set.of("integer", "number"))) {
            kinds = Set.of("number");
        }
        if (types.names.isEmpty() && kinds.size() == 1) {
            types.names.add(kinds.iterator().next());
        }
        String description = converted.path("description").asText("");
        converted.put(
                "description",
                description + (description.isEmpty() ? "" : " ") + "One of: " + String.join(", ", written) + ".");
    }

    /** The JSON Schema type of a value. */
    private static String kind(JsonNode value) {
        if (value.isIntegralNumber()) {
            return "integer";
        } else if (value.isNumber()) {
            return "number";
        } else if (value.isBoolean()) {
            return "boolean";
        } else if (value.isTextual()) {
            return "string";
        }
        return value.isArray() ? "array" : "object";
    }

    /** The schema with one type, or, for several, an {@code anyOf} of one branch per type with its keywords. */
    private static ObjectNode typed(ObjectNode converted, List<String> types) {
        if (types.size() == 1) {
            converted.put("type", types.get(0));
        }
        if (types.size() < 2) {
            return converted;
        }
        ObjectNode union = Json.object();
        ArrayNode branches = Json.MAPPER.createArrayNode();
        for (String type : types) {
            ObjectNode branch = branches.addObject().put("type", type);
            for (String keyword : OF_TYPE.getOrDefault(type, Set.of())) {
                if (converted.has(keyword)) {
                    branch.set(keyword, converted.get(keyword).deepCopy());
                }
            }
        }
        converted.properties().forEach(field -> {
            boolean ofAType = OF_TYPE.values().stream().anyMatch(keywords -> keywords.contains(field.getKey()));
            if (!ofAType) {
                union.set(field.getKey(), field.getValue());
            }
        });
        union.set("anyOf", branches);
        return union;
    }
}
