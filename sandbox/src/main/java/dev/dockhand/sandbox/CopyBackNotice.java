package dev.dockhand.sandbox;

/**
 * One thing a copy back could not do, said twice: to the model, in the result of the command that caused it, and to
 * the user, when the session ends and the container goes with what was left in it. The model is told what not to try;
 * the user what to do about it.
 */
record CopyBackNotice(String toModel, String toUser) {}
