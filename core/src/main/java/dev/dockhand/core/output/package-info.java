/**
 * Keeping tool output within the model's budget: a head and a tail for the model, the whole text in a file it can
 * page through, and never more than the budget in memory.
 */
package dev.dockhand.core.output;
