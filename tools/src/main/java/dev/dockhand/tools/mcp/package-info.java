/**
 * The tools of Model Context Protocol servers, through the official MCP Java SDK: {@link McpServerSpec} (one
 * configured server, its {@code ${VAR}}s expanded), {@link McpServers} (starts them together, offers their tools,
 * stops them), {@link McpTool} (one server tool as a Dockhand tool, named {@code mcp__<server>__<tool>}). Nothing
 * here is loaded unless a server is configured: the SDK and its reactive library cost start-up time.
 */
package dev.dockhand.tools.mcp;
