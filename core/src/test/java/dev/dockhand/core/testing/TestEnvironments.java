package dev.dockhand.core.testing;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Tool environments and contexts over a real temporary folder, for tests. */
public final class TestEnvironments {
    private TestEnvironments() {}

    /** A sandbox for tests that must not run commands: any attempt fails the test. */
    public static final Sandbox NO_COMMANDS = new Sandbox() {
        @Override
        public String kind() {
            return "none";
        }

        @Override
        public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
            throw new AssertionError("this test runs no commands, yet one was run: " + request.command());
        }

        @Override
        public BackgroundProcess start(String command, Path directory, Path outputFolder) {
            throw new AssertionError("this test runs no commands, yet one was started: " + command);
        }

        @Override
        public List<BackgroundProcess> background() {
            return List.of();
        }

        @Override
        public void close() {}
    };

    public static ToolEnvironment environment(Path workspace, Sandbox sandbox) {
        return new ToolEnvironment(
                Workspace.of(workspace),
                sandbox,
                OutputLimits.DEFAULT,
                workspace.resolveSibling(workspace.getFileName() + "-output"));
    }

    public static ToolContext context(Path workspace, Sandbox sandbox, OutputSink output, Cancellation cancel) {
        ToolEnvironment environment = environment(workspace, sandbox);
        return new ToolContext(
                environment.workspace(),
                sandbox,
                cancel,
                output,
                "call_test",
                environment.limits(),
                environment.outputDir());
    }

    public static ToolContext context(Path workspace, Sandbox sandbox) {
        return context(workspace, sandbox, OutputSink.NONE, new Cancellation());
    }
}
