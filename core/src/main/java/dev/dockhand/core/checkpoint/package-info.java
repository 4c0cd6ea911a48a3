/**
 * Checkpoints: the workspace recorded before every call that may change it, in a shadow repository of Dockhand's own
 * that never touches the project's {@code .git}, so that what the model's edits and commands did can be taken back.
 */
package dev.dockhand.core.checkpoint;
