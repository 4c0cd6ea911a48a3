package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server on this machine is read through {@link ProcessStdioTransport}, as a sandboxed one is: its stderr is
 * read in bounded lines, so a server (from a cloned repository's settings, say) that prints one endless line costs a
 * few kilobytes, not the line.
 */
class HostStdioServerTest {
    private static final long FLOOD = 50L << 20;

    @TempDir
    Path workspace;

    /** What every live thread of this JVM has allocated so far. */
    private static long allocatedByAllThreads() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return LongStream.of(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
                .filter(bytes -> bytes > 0)
                .sum();
    }

    @Test
    void aServerThatWritesFiftyMegabytesOfStderrOnOneLineWorksAndOnlyTheLinesStartIsKept() {
        McpServerSpec spec =
                McpServerEntry.testServer("flood", String.valueOf(FLOOD)).spec("flood");
        McpServerConnection connection = new McpServerConnection(
                spec,
                workspace,
                new McpServerConnection.Listener() {
                    @Override
                    public void toolsChanged(McpServerConnection changed) {}

                    @Override
                    public void restarted(McpServerConnection changed) {}
                },
                null);
        long before = allocatedByAllThreads();
        try {
            connection.start(McpServers.START_TIMEOUT);
            // The server wrote the line before it answered; the reader may still be on its last bytes.
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                while (!connection.stderrTail().endsWith("test server: starting")) {
                    Thread.onSpinWait();
                }
            });
            long allocated = allocatedByAllThreads() - before;

            assertEquals(
                    List.of(
                            true,
                            " Its stderr ended with:\n" + "x".repeat(ProcessStdioTransport.MAX_STDERR_LINE_BYTES)
                                    + " … [" + (FLOOD - ProcessStdioTransport.MAX_STDERR_LINE_BYTES)
                                    + " more bytes]\ntest server: starting"),
                    List.of(connection.connected(), connection.stderrTail()));
            // Reading a line whole would have taken at least the line, 50 MB, and twice that while it grew.
            assertTrue(allocated < FLOOD / 2, "reading the server's stderr allocated " + allocated + " bytes");
        } finally {
            connection.close();
        }
    }
}
