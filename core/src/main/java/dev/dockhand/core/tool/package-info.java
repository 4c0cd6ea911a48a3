/**
 * The Tool SPI: what a tool declares to the model, how its arguments are bound, and what it returns. Tools live in
 * the tools module; everything they may touch (workspace, sandbox, cancellation, live output) comes in a context.
 */
package dev.dockhand.core.tool;
