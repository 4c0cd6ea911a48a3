package dev.dockhand.core.model.gemini;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.testing.WireFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An MCP server's input schema as servers send it, which Dockhand passes on unchanged (hand-written in the shapes
 * zod-to-json-schema and the azure-devops MCP server emit: an integer enum, {@code type: [T, "null"]}, a null in an
 * enum, a union of two types, {@code additionalProperties} and {@code $schema}), goes to Gemini as a {@code Schema} it
 * takes; the scripted Gemini refuses the schema as it came, as the real one does.
 */
class GeminiSchemasTest {
    private static final String PATH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

    private static final String MCP_SCHEMA =
            """
            {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
             "properties":{
              "project":{"type":"string","description":"The project's name."},
              "top":{"type":"integer","enum":[1,2,4],"description":"How many items."},
              "state":{"type":["string","null"],"enum":["active","closed",null]},
              "assignee":{"type":["string","null"],"description":"Who has it."},
              "id":{"type":["string","integer"],"minLength":1,"minimum":1,"description":"A work item's id or key."},
              "depth":{"enum":[0,1,2.5]},
              "tags":{"type":"array","items":{"type":"string","enum":["bug","task"]}},
              "links":{"type":"boolean","default":false}},
             "required":["project"]}
            """;

    private static ObjectNode request(ObjectNode parameters) {
        return GeminiRequestWriter.write(new ModelRequest(
                "gemini-2.5-flash",
                List.of(new Message.User("go")),
                List.of(new ToolDeclaration("mcp__ado__wit_list", "List work items.", parameters))));
    }

    @Test
    void anMcpSchemaGoesAsASchemaGeminiTakes() {
        ObjectNode body = request((ObjectNode) Json.read(MCP_SCHEMA));

        assertEquals(List.of(), WireFormat.GEMINI.problems(PATH, body));
        assertEquals(
                Json.read(
                        """
                {"type":"object","required":["project"],"properties":{
                  "project":{"type":"string","description":"The project's name."},
                  "top":{"type":"integer","description":"How many items. One of: 1, 2, 4."},
                  "state":{"type":"string","enum":["active","closed"],"nullable":true},
                  "assignee":{"type":"string","nullable":true,"description":"Who has it."},
                  "id":{"description":"A work item's id or key.",
                        "anyOf":[{"type":"string","minLength":1},{"type":"integer","minimum":1}]},
                  "depth":{"type":"number","description":"One of: 0, 1, 2.5."},
                  "tags":{"type":"array","items":{"type":"string","enum":["bug","task"]}},
                  "links":{"type":"boolean"}}}
                """),
                body.at("/tools/0/functionDeclarations/0/parameters"));
    }

    @Test
    void theScriptedGeminiRefusesTheSchemaAsItCame() {
        ObjectNode body = request((ObjectNode) Json.read(MCP_SCHEMA));
        ((ObjectNode) body.at("/tools/0/functionDeclarations/0")).set("parameters", Json.read(MCP_SCHEMA));

        String at = "tools[0].function_declarations[0].parameters";
        assertEquals(
                List.of(
                        "Invalid JSON payload received. Unknown name \"$schema\" at '" + at + "': Cannot find field.",
                        "Invalid JSON payload received. Unknown name \"additionalProperties\" at '" + at
                                + "': Cannot find field.",
                        "Invalid value at '" + at + ".properties[1].value.enum[0]' (TYPE_STRING), 1",
                        "Invalid value at '" + at + ".properties[1].value.enum[1]' (TYPE_STRING), 2",
                        "Invalid value at '" + at + ".properties[1].value.enum[2]' (TYPE_STRING), 4",
                        "* GenerateContentRequest." + at + ".properties[1].value.enum: only allowed for STRING type",
                        "Invalid JSON payload received. Unknown name \"type\" at '" + at
                                + ".properties[2].value': Proto field is not repeating, cannot start list.",
                        "Invalid value at '" + at + ".properties[2].value.enum[2]' (TYPE_STRING), null",
                        "* GenerateContentRequest." + at + ".properties[2].value.enum: only allowed for STRING type",
                        "Invalid JSON payload received. Unknown name \"type\" at '" + at
                                + ".properties[3].value': Proto field is not repeating, cannot start list.",
                        "Invalid JSON payload received. Unknown name \"type\" at '" + at
                                + ".properties[4].value': Proto field is not repeating, cannot start list.",
                        "Invalid value at '" + at + ".properties[5].value.enum[0]' (TYPE_STRING), 0",
                        "Invalid value at '" + at + ".properties[5].value.enum[1]' (TYPE_STRING), 1",
                        "Invalid value at '" + at + ".properties[5].value.enum[2]' (TYPE_STRING), 2.5",
                        "* GenerateContentRequest." + at + ".properties[5].value.enum: only allowed for STRING type"),
                WireFormat.GEMINI.problems(PATH, body));
    }
}
