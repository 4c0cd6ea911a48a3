/**
 * Dockhand's core: everything between the user's prompt and the model's answer, with no terminal and no Docker.
 * The cli module drives it and renders the events it emits.
 */
package dev.dockhand.core;
