/**
 * Ollama's native {@code /api/chat}: NDJSON lines, tool calls complete in one line with their arguments as an
 * object, no API key.
 */
package dev.dockhand.core.model.ollama;
