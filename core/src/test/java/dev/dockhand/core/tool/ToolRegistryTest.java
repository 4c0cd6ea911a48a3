package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.testing.TestTools;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {
    @Test
    void refusesTwoToolsWithOneName() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> new ToolRegistry(
                        List.of(new TestTools.Echo("echo", ToolKind.READ), new TestTools.Echo("echo", ToolKind.EDIT))));

        assertEquals(
                "two tools are named echo: dev.dockhand.core.testing.TestTools$Echo and"
                        + " dev.dockhand.core.testing.TestTools$Echo",
                refused.getMessage());
    }

    @Test
    void keepsTheOrderToolsWereGivenIn() {
        ToolRegistry registry = new ToolRegistry(
                List.of(new TestTools.Echo("b", ToolKind.READ), new TestTools.Echo("a", ToolKind.READ)));

        assertEquals(List.of("b", "a"), registry.names());
        assertEquals(
                List.of("b", "a"),
                registry.declarations().stream().map(d -> d.name()).toList());
    }

    @Test
    void lateToolsFollowTheFixedOnesAndTheDeclarationsChangeOnlyWithThem() {
        List<Tool<?>> first = List.of(new TestTools.Echo("mcp__s__one", ToolKind.EXECUTE));
        List<List<Tool<?>>> late = new java.util.ArrayList<>(List.of(List.of()));
        ToolRegistry registry = new ToolRegistry(List.of(new TestTools.Echo("read", ToolKind.READ)));
        registry.setLateTools(() -> late.get(0));

        List<dev.dockhand.core.model.ToolDeclaration> before = registry.declarations();
        late.set(0, first);
        List<dev.dockhand.core.model.ToolDeclaration> after = registry.declarations();

        assertEquals(List.of("read"), before.stream().map(d -> d.name()).toList());
        assertEquals(
                List.of("read", "mcp__s__one"),
                after.stream().map(d -> d.name()).toList());
        assertEquals(true, after == registry.declarations());
        assertEquals(List.of("read", "mcp__s__one"), registry.names());
        assertEquals(first.get(0), registry.find("mcp__s__one").orElseThrow());
    }

    @Test
    void aNarrowedRegistryKnowsTheFixedToolsItLeftOutAsWithheld() {
        Tool<?> read = new TestTools.Echo("read", ToolKind.READ);
        Tool<?> edit = new TestTools.Echo("edit", ToolKind.EDIT);
        ToolRegistry main = new ToolRegistry(List.of(read, edit));

        ToolRegistry narrowed = main.narrowed(name -> name.equals("read"), java.util.Map.of("edit", "not listed"));

        assertEquals(List.of("read"), narrowed.names());
        assertEquals(
                List.of(new dev.dockhand.core.model.ToolDeclaration(
                        "edit", edit.description(), edit.parameterSchema())),
                narrowed.withheldDeclarations());
        assertEquals(List.of(), main.withheldDeclarations());
    }
}
