/**
 * OpenAI's Responses API ({@code POST /v1/responses}), the only API serving OpenAI's newest coding models (the codex
 * and pro families), and spoken by xAI too. Dockhand uses it statelessly ({@code store: false}): every request carries
 * the whole conversation, and the reasoning items of earlier replies go back encrypted, as the replies brought them.
 */
package dev.dockhand.core.model.responses;
