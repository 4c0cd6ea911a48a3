/**
 * The {@code dockhand} command: options and settings, wiring of core, tools and sandbox, and rendering of agent
 * events. The only module that prints or exits.
 */
package dev.dockhand.cli;
