/**
 * Anthropic's Messages API: tool calls as {@code tool_use} content blocks streamed as JSON fragments, results as
 * {@code tool_result} blocks in a user message, the system prompt as a top-level field; prompt-cache breakpoints on
 * every request, extended thinking for a reasoning effort, thinking blocks replayed from the reply's provider state.
 */
package dev.dockhand.core.model.anthropic;
