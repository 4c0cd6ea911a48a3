package dev.dockhand.core.tool;

/** A path that leads out of the workspace; its message is written for the model. */
public final class PathOutsideWorkspaceException extends Exception {
    private static final long serialVersionUID = 1L;

    public PathOutsideWorkspaceException(String message) {
        super(message);
    }

    public ToolResult toResult() {
        return ToolResult.error(ToolErrorType.PATH_OUTSIDE_WORKSPACE, getMessage());
    }
}
