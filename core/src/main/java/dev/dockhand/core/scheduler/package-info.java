/**
 * The CoreToolScheduler and its parts: argument validation, the pure approval policy, the approver the CLI
 * implements, and the executor. A round of tool calls goes in; one terminal result per call comes out, in order.
 */
package dev.dockhand.core.scheduler;
