package dev.dockhand.core.tool;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.output.OutputFiles;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.output.TruncatedOutput;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.Sandbox;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Everything a running tool may use: the confined workspace, the sandbox for commands, the turn's cancellation, a
 * sink for live output, the call's id, where and how to keep output too large for the model, and the check every
 * write must pass at the moment it opens its file. Saved outputs are named by {@link OutputFiles}, never after the
 * call id, which the provider chose.
 */
public record ToolContext(
        Workspace workspace,
        Sandbox sandbox,
        Cancellation cancellation,
        OutputSink output,
        String callId,
        OutputLimits limits,
        Path outputDir,
        WriteGuard writeGuard,
        OutputFiles outputFiles) {

    public ToolContext(
            Workspace workspace,
            Sandbox sandbox,
            Cancellation cancellation,
            OutputSink output,
            String callId,
            OutputLimits limits,
            Path outputDir,
            WriteGuard writeGuard) {
        this(
                workspace,
                sandbox,
                cancellation,
                output,
                callId,
                limits,
                outputDir,
                writeGuard,
                new OutputFiles(outputDir));
    }

    public ToolContext(
            Workspace workspace,
            Sandbox sandbox,
            Cancellation cancellation,
            OutputSink output,
            String callId,
            OutputLimits limits,
            Path outputDir) {
        this(workspace, sandbox, cancellation, output, callId, limits, outputDir, WriteGuard.NONE);
    }

    /**
     * Waits for a turn at writing the host's workspace files (see {@link HostWrites}), which a sandbox copying a
     * command's changes back takes too; hold it from opening the file to closing it.
     */
    public HostWrites.Turn hostWriteTurn() {
        return sandbox == null ? HostWrites.NONE.take() : sandbox.hostWrites().take();
    }

    /** Opens {@code path} for writing, through the workspace's checks and this call's {@link WriteGuard}. */
    public WorkspaceFile openForWrite(String path) throws PathOutsideWorkspaceException, IOException {
        return workspace.open(path, writeGuard);
    }

    /** A collector for this call's output; its overflow goes to a file {@link OutputFiles} names in the folder. */
    public TruncatedOutput newOutput() {
        return outputFiles.newOutput(limits, callId);
    }
}
