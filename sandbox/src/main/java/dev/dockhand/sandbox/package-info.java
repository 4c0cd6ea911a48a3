/**
 * Sandbox implementations: {@link dev.dockhand.sandbox.LocalSandbox} runs commands directly on the host;
 * the Docker sandbox runs them in a confined container.
 */
package dev.dockhand.sandbox;
