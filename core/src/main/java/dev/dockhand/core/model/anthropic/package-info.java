/**
 * Anthropic's Messages API: tool calls as {@code tool_use} content blocks streamed as JSON fragments, results as
 * {@code tool_result} blocks in a user message, the system prompt as a top-level field.
 */
package dev.dockhand.core.model.anthropic;
