/**
 * Hooks: the user's own commands, run on the host at points of a session ({@link HookEvent}), configured under
 * {@code "hooks"} in Claude Code's shape. {@link HookDefinitions} reads and checks the configuration, {@link
 * HookAnswer} reads what one hook answered, and {@link Hooks} runs them for the scheduler ({@code CallHooks}) and
 * the agent loop ({@code TurnHooks}). Starting a process is the {@link HookProcess} SPI's job, so core runs none.
 */
package dev.dockhand.core.hooks;
