package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What the model is told of every tool, pinned in a golden file: a change to a name, description or schema shows as
 * a diff to review. Regenerate with {@code -Ddockhand.updateSnapshots=true}.
 */
class ToolDeclarationsSnapshotTest {
    private static final Path GOLDEN = Path.of("src/test/resources/tool-declarations.json");

    @Test
    void declarationsMatchTheGoldenFile() throws Exception {
        ArrayNode declarations = Json.MAPPER.createArrayNode();
        for (ToolDeclaration declaration : new ToolRegistry(BuiltinTools.all()).declarations()) {
            ObjectNode node = declarations.addObject();
            node.put("name", declaration.name()).put("description", declaration.description());
            node.set("parameters", declaration.parameters());
        }
        String actual = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(declarations) + "\n";
        if (Boolean.getBoolean("dockhand.updateSnapshots")) {
            Files.writeString(GOLDEN, actual);
        }
        assertEquals(Files.readString(GOLDEN), actual);
    }

    @Test
    void everyDeclarationStaysSmall() {
        for (ToolDeclaration declaration : new ToolRegistry(BuiltinTools.all()).declarations()) {
            int size = Json.write(declaration.parameters()).length()
                    + declaration.description().length();
            assertEquals(true, size < 1500, declaration.name() + " declares " + size + " characters");
        }
    }
}
