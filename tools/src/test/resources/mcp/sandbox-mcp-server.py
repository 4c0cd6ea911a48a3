#!/usr/bin/env python3
# Hand-written for Dockhand's tests: a tiny MCP server speaking newline-delimited JSON-RPC over stdio, in plain
# python3 because the sandbox image has python3 but no Java or Node.js. It answers initialize, ping, tools/list and
# tools/call, and honours notifications/cancelled. Tools:
#   echo {text}         -> "echo: <text>"
#   list_dir {path}     -> the sorted names in path, one a line; an error result when it cannot be read
#   spawn_sleeper {tag} -> starts "sleep <tag>" in a session of its own and returns at once (left behind on purpose)
#   slow {tag}          -> runs "sleep <tag>", says so in a progress notification and answers when it ends; a cancel
#                          kills it and sends no answer
#   crash               -> exits with status 3 without answering
#   write_file {path, text} -> writes text to path (relative to the server's cwd) and answers "wrote <path>"
import json
import os
import subprocess
import sys
import threading

write_lock = threading.Lock()
running = {}


def send(message):
    with write_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def text(value, error=False):
    return {"content": [{"type": "text", "text": value}], "isError": error}


TOOLS = [
    {"name": "echo", "description": "Says the text back.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "list_dir", "description": "Lists a folder.",
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "spawn_sleeper", "description": "Starts a sleep that outlives the call.",
     "inputSchema": {"type": "object", "properties": {"tag": {"type": "string"}}, "required": ["tag"]}},
    {"name": "slow", "description": "Sleeps until it ends or is cancelled.",
     "inputSchema": {"type": "object", "properties": {"tag": {"type": "string"}}, "required": ["tag"]}},
    {"name": "crash", "description": "Exits at once.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "write_file", "description": "Writes a file.",
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
                     "required": ["path", "text"]}},
]


def slow(request_id, child):
    child.wait()
    if running.pop(request_id, None) is not None:
        send({"jsonrpc": "2.0", "id": request_id, "result": text("slept")})


def call(request_id, name, arguments):
    if name == "echo":
        return text("echo: " + arguments["text"])
    if name == "list_dir":
        try:
            return text("\n".join(sorted(os.listdir(arguments["path"]))))
        except OSError as e:
            return text(str(e), True)
    if name == "spawn_sleeper":
        subprocess.Popen(["sleep", arguments["tag"]], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return text("started")
    if name == "write_file":
        with open(arguments["path"], "w") as out:
            out.write(arguments["text"])
        return text("wrote " + arguments["path"])
    return text("no tool " + name, True)


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": request_id, "result": {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "sandbox-test-server", "version": "1.0.0"}}})
    elif method == "notifications/cancelled":
        child = running.pop(params.get("requestId"), None)
        if child is not None:
            child.kill()
    elif request_id is None:
        pass
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
    elif method == "tools/call" and params.get("name") == "slow":
        # Registered before the next line is read, so that a cancel that follows at once finds it.
        running[request_id] = subprocess.Popen(["sleep", params["arguments"]["tag"]])
        threading.Thread(target=slow, args=(request_id, running[request_id]), daemon=True).start()
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": 0, "message": "sleeping"}})
    elif method == "tools/call" and params.get("name") == "crash":
        os._exit(3)
    elif method == "tools/call":
        send({"jsonrpc": "2.0", "id": request_id,
              "result": call(request_id, params.get("name"), params.get("arguments") or {})})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "no method " + method}})
