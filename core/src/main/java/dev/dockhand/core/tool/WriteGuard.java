package dev.dockhand.core.tool;

import java.nio.file.Path;

/**
 * The last check before a tool writes, on the real path {@link Workspace#open(String, WriteGuard)} is about to walk:
 * the scheduler's protected-path check, made again at the moment of use, so a link swapped in after the call was
 * approved cannot steer the write into a protected path. The walk that follows the check follows no link.
 */
@FunctionalInterface
public interface WriteGuard {
    /** Allows everything: for tools and tests that run outside the scheduler. */
    WriteGuard NONE = real -> {};

    /** Throws, with a sentence for the model, when {@code real} must not be written. */
    void check(Path real) throws PathOutsideWorkspaceException;
}
