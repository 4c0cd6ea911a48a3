package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.quote;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What Gemini refuses in a function declaration's {@code parameters}, a {@code Schema} message (the API reference's
 * "Schema" object, a select subset of OpenAPI 3.0): a field it does not have, a {@code type} that is not one {@code
 * Type} value, an {@code enum} that is not a list of strings or sits beside another type than STRING, a {@code
 * nullable} that is not a boolean. The paths are written as the API writes them ({@code properties[1].value}, the
 * map's entries by position); the wording of each message follows a recorded 400, cited at its rule.
 */
final class GeminiSchemaRules {
    /** The Schema message's fields. */
    private static final Set<String> FIELDS = Set.of(
            "type",
            "format",
            "title",
            "description",
            "nullable",
            "enum",
            "maxItems",
            "minItems",
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "minLength",
            "maxLength",
            "pattern",
            "example",
            "anyOf",
            "propertyOrdering",
            "default",
            "items",
            "minimum",
            "maximum");

    /** The Type enum's values; the API takes them in either case. */
    private static final Set<String> TYPES =
            Set.of("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL");

    private GeminiSchemaRules() {}

    static void check(JsonNode schema, String where, WireProblems problems) {
        if (!schema.isObject()) {
            problems.add(
                    "Invalid value at '" + where + "' (google.ai.generativelanguage.v1beta.Schema), " + quote(schema));
            return;
        }
        for (Map.Entry<String, JsonNode> field : schema.properties()) {
            // Recorded: "Unknown name \"additionalProperties\" at '…items': Cannot find field." (prism-php/prism#974).
            problems.require(
                    FIELDS.contains(field.getKey()),
                    "Invalid JSON payload received. Unknown name \"" + field.getKey() + "\" at '" + where
                            + "': Cannot find field.");
        }
        JsonNode type = schema.get("type");
        if (type != null) {
            // Recorded: "Unknown name \"type\" at '…': Proto field is not repeating, cannot start list."
            // ({"type":["string","null"]}, prism-php/prism#974).
            problems.require(
                    !type.isArray(),
                    "Invalid JSON payload received. Unknown name \"type\" at '" + where
                            + "': Proto field is not repeating, cannot start list.");
            problems.require(
                    type.isArray()
                            || type.isTextual() && TYPES.contains(type.asText().toUpperCase(Locale.ROOT)),
                    "Invalid value at '" + where + ".type' (type.googleapis.com/google.ai.generativelanguage.v1beta"
                            + ".Type), " + quote(type));
        }
        enumeration(schema, where, problems);
        JsonNode nullable = schema.get("nullable");
        problems.require(
                nullable == null || nullable.isBoolean(),
                "Invalid value at '" + where + ".nullable' (TYPE_BOOL), " + quote(nullable));
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            int p = 0;
            for (Map.Entry<String, JsonNode> entry : properties.properties()) {
                check(entry.getValue(), where + ".properties[" + p++ + "].value", problems);
            }
        }
        if (schema.has("items")) {
            check(schema.get("items"), where + ".items", problems);
        }
        JsonNode anyOf = schema.get("anyOf");
        if (anyOf != null && anyOf.isArray()) {
            for (int b = 0; b < anyOf.size(); b++) {
                check(anyOf.get(b), where + ".any_of[" + b + "]", problems);
            }
        }
    }

    /**
     * Recorded: "Invalid value at 'request.tools[0].function_declarations[21].parameters.properties[5].value.enum[0]'
     * (TYPE_STRING), 0" for {@code {"type":"integer","enum":[0,1,2]}} (microsoft/azure-devops-mcp#145), and
     * "GenerateContentRequest.tools[0].function_declarations[9].parameters.properties[truncateMode].enum: only allowed
     * for STRING type" (JetBrains/mcp-jetbrains#71).
     */
    private static void enumeration(JsonNode schema, String where, WireProblems problems) {
        JsonNode values = schema.get("enum");
        if (values == null) {
            return;
        }
        if (!values.isArray()) {
            problems.add("Invalid value at '" + where + ".enum' (TYPE_STRING), " + quote(values));
            return;
        }
        for (int v = 0; v < values.size(); v++) {
            problems.require(
                    values.get(v).isTextual(),
                    "Invalid value at '" + where + ".enum[" + v + "]' (TYPE_STRING), " + quote(values.get(v)));
        }
        String type = schema.path("type").asText("");
        problems.require(
                type.equalsIgnoreCase("string"),
                "* GenerateContentRequest." + where + ".enum: only allowed for STRING type");
    }
}
