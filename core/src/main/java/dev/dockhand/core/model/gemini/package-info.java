/**
 * Google's Gemini API ({@code streamGenerateContent?alt=sse}): whole {@code functionCall} parts without ids (Dockhand
 * assigns them), {@code functionResponse} parts back, tool schemas cut down to the OpenAPI subset it accepts, thought
 * summaries as reasoning, and thought signatures replayed on the parts they came on.
 */
package dev.dockhand.core.model.gemini;
