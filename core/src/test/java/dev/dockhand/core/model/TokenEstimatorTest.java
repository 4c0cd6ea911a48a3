package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenEstimatorTest {
    private static ObjectNode schema() throws IOException {
        try (InputStream in = TokenEstimatorTest.class.getResourceAsStream("/estimates/schema.json")) {
            return (ObjectNode) Json.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void toolsCountNameDescriptionAndSchemaAtFourCharactersATokenEach() throws IOException {
        ObjectNode schema = schema();
        ToolDeclaration tool = new ToolDeclaration("read_file", "Reads a file.", schema);

        long expected = (9 + 3) / 4 + (13 + 3) / 4 + (Json.write(schema).length() + 3) / 4;
        assertEquals(expected, TokenEstimator.tools(List.of(tool)));
    }
}
