package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Opens the package-private schema converter to the conformance test in the parent package. */
public final class GeminiSchemasAccess {
    private GeminiSchemasAccess() {}

    public static ObjectNode convert(JsonNode schema) {
        return GeminiSchemas.convert(schema);
    }
}
