package dev.dockhand.tools.mcp;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;

/**
 * Handed to the SDK so that its own validator, built on a json-schema-validator version other than the one
 * Dockhand's scheduler uses, is never loaded. The client uses it only to check a server's structured results against
 * the server's output schema; Dockhand passes those results to the model as they came, and a mismatch is the server's
 * to fix, not a reason to hide its answer.
 */
final class AcceptingSchemaValidator implements JsonSchemaValidator {
    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        return ValidationResponse.asValid(null);
    }
}
