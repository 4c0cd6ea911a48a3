/**
 * Keeps secrets out of the conversation: {@link dev.dockhand.core.redaction.Redactor} replaces the user's own secret
 * values and well-known credential shapes ({@link dev.dockhand.core.redaction.SecretRules}) in everything on its way
 * to the model with stable placeholders, and puts the values back into the arguments of the calls that act on this
 * machine.
 */
package dev.dockhand.core.redaction;
