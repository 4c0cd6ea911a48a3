/**
 * The OpenAI chat-completions wire format, spoken by OpenAI and by most self-hosted servers (vLLM, llama.cpp,
 * LM Studio, OpenRouter). The reader is forgiving of the ways those servers differ; the writer is strict.
 */
package dev.dockhand.core.model.openai;
