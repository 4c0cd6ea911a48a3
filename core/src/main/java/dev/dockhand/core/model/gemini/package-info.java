/**
 * Google's Gemini API ({@code streamGenerateContent?alt=sse}): whole {@code functionCall} parts without ids (Dockhand
 * assigns them), {@code functionResponse} parts back, and tool schemas cut down to the OpenAPI subset it accepts.
 */
package dev.dockhand.core.model.gemini;
