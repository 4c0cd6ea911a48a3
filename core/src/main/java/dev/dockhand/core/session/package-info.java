/**
 * Sessions: every message appended to a JSONL transcript as it happens, so a crash loses at most the reply being
 * streamed, and a transcript read back, repaired, to continue a conversation.
 */
package dev.dockhand.core.session;
