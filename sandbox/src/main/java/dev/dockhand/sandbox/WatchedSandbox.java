package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A sandbox that reports, in a command's result, every protected path (see {@link ProtectedLayout}) that changed
 * while the command ran: without a container ({@code --sandbox none}) nothing stops a command from planting a git hook
 * or editing {@code .git/config}, so the model and the user at least learn of it. The paths are fingerprinted just
 * before and just after each command; a change made in that window by another program (an editor saving its
 * settings) is reported too, and the message says so.
 */
public final class WatchedSandbox implements Sandbox {
    private final Sandbox sandbox;
    private final Supplier<List<ProtectedLayout>> layouts;

    public WatchedSandbox(Sandbox sandbox, Supplier<List<ProtectedLayout>> layouts) {
        this.sandbox = sandbox;
        this.layouts = layouts;
    }

    @Override
    public String kind() {
        return sandbox.kind();
    }

    @Override
    public WorkspaceTransport workspaceTransport() {
        return sandbox.workspaceTransport();
    }

    @Override
    public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
        Map<String, String> before = fingerprint();
        ExecResult result = sandbox.exec(request, output, cancel);
        List<String> changes = ProtectedLayout.changes(before, fingerprint());
        if (changes.isEmpty()) {
            return result;
        }
        return result.withNotice("While the command ran, protected paths changed: " + String.join(", ", changes)
                + ". What is written there (git hooks and config, editor and Dockhand settings) runs later on the"
                + " user's machine, and without a sandbox nothing prevents it: if this command did it, tell the user"
                + " exactly what changed and why.");
    }

    /** Every layout's fingerprint, each path under its root's absolute path so two roots never mix. */
    private Map<String, String> fingerprint() {
        Map<String, String> all = new TreeMap<>();
        for (ProtectedLayout layout : layouts.get()) {
            Path root = layout.root();
            layout.fingerprint()
                    .forEach((path, print) -> all.put(root.resolve(path).toString(), print));
        }
        return all;
    }

    @Override
    public BackgroundProcess start(String command, Path directory, Path outputFolder) throws IOException {
        return sandbox.start(command, directory, outputFolder);
    }

    @Override
    public void syncIn() throws IOException {
        sandbox.syncIn();
    }

    @Override
    public List<String> syncBack() {
        return sandbox.syncBack();
    }

    @Override
    public HostWrites hostWrites() {
        return sandbox.hostWrites();
    }

    @Override
    public List<BackgroundProcess> background() {
        return sandbox.background();
    }

    @Override
    public void close() {
        sandbox.close();
    }

    @Override
    public List<String> closeAndReport() {
        return sandbox.closeAndReport();
    }
}
