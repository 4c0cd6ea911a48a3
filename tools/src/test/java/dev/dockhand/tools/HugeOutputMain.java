package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.sandbox.LocalSandbox;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a child JVM with a small heap by {@link RunShellCommandToolTest}: one command printing {@code args[1]}
 * bytes. Prints the result's length and the peak heap used, in bytes.
 */
public final class HugeOutputMain {
    private HugeOutputMain() {}

    public static void main(String[] args) throws Exception {
        Path workspace = Path.of(args[0]);
        long bytes = Long.parseLong(args[1]);
        String command = "head -c " + bytes + " /dev/zero | tr '\\0' 'x' | fold -w 1000";
        ToolResult result;
        try (LocalSandbox sandbox = new LocalSandbox(Map.of("PATH", System.getenv("PATH")))) {
            result = new RunShellCommandTool()
                    .execute(
                            new RunShellCommandTool.Params(command, null, 300_000L, null),
                            TestEnvironments.context(workspace, sandbox, line -> {}, new Cancellation()));
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.println(result.llmContent().length() + " " + peak + " " + result.display());
    }
}
