/**
 * Wildcard matching that takes time proportional to the text's length times the pattern's, whatever either holds: git's
 * ignore files ({@link dev.dockhand.core.glob.IgnoreFile}) and the glob patterns the model gives
 * ({@link dev.dockhand.core.glob.Glob}), both compiled to one automaton ({@link dev.dockhand.core.glob.Wildcard}).
 */
package dev.dockhand.core.glob;
