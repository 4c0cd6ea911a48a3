package dev.dockhand.core.tool;

/**
 * What a tool can do to the world, which decides when it runs without asking (see {@code ApprovalPolicy}). When in
 * doubt a tool is given the more dangerous kind.
 */
public enum ToolKind {
    /** Reads the workspace or session state only; never changes a file or runs a program. */
    READ,
    /** Creates, changes or deletes files in the workspace. */
    EDIT,
    /** Runs a program, which may do anything the sandbox allows. */
    EXECUTE,
    /** Reaches the network. */
    FETCH
}
