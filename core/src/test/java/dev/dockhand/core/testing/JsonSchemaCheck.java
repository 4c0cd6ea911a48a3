package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A JSON Schema 2020-12 applied to lines of JSON, for tests that hold printed output to a published schema. */
public final class JsonSchemaCheck {
    private final JsonSchema schema;

    public JsonSchemaCheck(JsonNode schema) {
        this.schema =
                JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema);
    }

    /** What is wrong with each non-blank line of {@code lines}, one entry per problem; empty when all are valid. */
    public List<String> problems(String lines) {
        List<String> problems = new ArrayList<>();
        for (String line : lines.lines().filter(line -> !line.isBlank()).toList()) {
            JsonNode node;
            try {
                node = Json.MAPPER.readTree(line);
            } catch (IOException e) {
                problems.add("not JSON: " + line);
                continue;
            }
            for (ValidationMessage message : schema.validate(node)) {
                problems.add(message.getMessage() + " in " + line);
            }
        }
        return problems;
    }
}
