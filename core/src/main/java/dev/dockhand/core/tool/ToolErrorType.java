package dev.dockhand.core.tool;

/** Why a tool call failed, so displays and tests need not parse the model-facing text. */
public enum ToolErrorType {
    /** No tool of that name is registered. */
    UNKNOWN_TOOL,
    /** The arguments were not JSON, broke the schema, or failed the tool's own checks. */
    INVALID_PARAMS,
    /** The approval policy or the user refused the call. */
    NOT_APPROVED,
    /** A path named a file or folder that does not exist. */
    FILE_NOT_FOUND,
    /**
     * A path led outside the workspace (by {@code ..}, an absolute path or a symlink), or a folder on it became a
     * symlink between the check and the use.
     */
    PATH_OUTSIDE_WORKSPACE,
    /** An edit's old text was not found, or was found more than once. */
    EDIT_NO_MATCH,
    /** A command ran and failed, or was killed at its time-out. */
    EXECUTION_FAILED,
    /** The file system refused (permissions, disk full, not a regular file). */
    IO_ERROR,
    /** The user cancelled before the call finished. */
    CANCELLED,
    /** The tool threw; a bug, reported to the model rather than crashing the turn. */
    INTERNAL
}
