package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplApproverTest {
    @Test
    void onlyAnMcpToolsQuestionOffersItsWholeServer() {
        assertEquals(
                List.of(Optional.of("the MCP server everything"), Optional.empty(), Optional.empty()),
                List.of(
                        ReplApprover.mcpServer("mcp__everything__get-sum"),
                        ReplApprover.mcpServer("run_shell_command"),
                        ReplApprover.mcpServer("mcp__broken")));
    }
}
