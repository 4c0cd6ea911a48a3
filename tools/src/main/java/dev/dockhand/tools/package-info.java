/**
 * The built-in tools, one class each, registered from the explicit list in {@link dev.dockhand.tools.BuiltinTools}.
 */
package dev.dockhand.tools;
