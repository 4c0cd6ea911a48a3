/**
 * The provider-neutral conversation: messages, tool calls, and the history whose validity every request depends on.
 */
package dev.dockhand.core.conversation;
