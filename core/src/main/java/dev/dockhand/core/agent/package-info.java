/**
 * The agent loop: one user prompt in, model requests and tool rounds until the model answers, the turn limit is
 * reached, or the user cancels. Progress leaves as {@link dev.dockhand.core.agent.AgentEvent}s; nothing here prints.
 */
package dev.dockhand.core.agent;
