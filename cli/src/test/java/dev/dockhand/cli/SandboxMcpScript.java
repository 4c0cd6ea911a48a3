package dev.dockhand.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hand-written: the least of an MCP server (initialize, tools/list, a {@code hello} tool that says where it runs) in
 * the python3 that the sandbox image has, for the tests that start a server in the Docker sandbox (the image has no
 * Java for the SDK's test server, nor Node.js).
 */
final class SandboxMcpScript {
    private static final String SCRIPT =
            """
            import json, os, sys
            for line in sys.stdin:
                m = json.loads(line)
                if m.get("id") is None:
                    continue
                if m["method"] == "initialize":
                    r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}},
                         "serverInfo": {"name": "t", "version": "1"}}
                elif m["method"] == "tools/list":
                    r = {"tools": [{"name": "hello", "description": "Says where it runs.",
                                    "inputSchema": {"type": "object"}}]}
                else:
                    where = "a container" if os.path.exists("/.dockerenv") else "this machine"
                    r = {"content": [{"type": "text", "text": "hello from " + where}]}
                print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
            """;

    private SandboxMcpScript() {}

    /** Writes the server to {@code folder}/server.py. */
    static void writeTo(Path folder) throws IOException {
        Files.writeString(folder.resolve("server.py"), SCRIPT);
    }
}
