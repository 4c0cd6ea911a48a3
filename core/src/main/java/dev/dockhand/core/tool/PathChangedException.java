package dev.dockhand.core.tool;

import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * A path that passed the workspace check had changed by the time it was used: a folder or the file on it had become
 * a symbolic link, or a folder had been moved. It is refused, not followed. A command the model started can still be
 * running (in the sandbox, in the background) and can swap a folder for a link at any moment, so the file tools open
 * paths one name at a time through the folders they hold open ({@link OpenFolder}) and meet such a swap as this.
 */
public final class PathChangedException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    PathChangedException(Path path, String reason) {
        super(path.toString(), null, reason);
    }

    static PathChangedException becameLink(Path path) {
        return new PathChangedException(
                path,
                "is a symbolic link now, though it was not when the path was checked; the file tools do not follow it,"
                        + " so nothing was read or written through it");
    }

    /** Reported like a path the check refused: either way the path leads where the tools must not go. */
    public ToolResult toResult() {
        return ToolResult.error(ToolErrorType.PATH_OUTSIDE_WORKSPACE, getMessage() + ".");
    }
}
