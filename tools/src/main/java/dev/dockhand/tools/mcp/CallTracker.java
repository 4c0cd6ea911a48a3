package dev.dockhand.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's transport with one thing added: it notes the JSON-RPC id of each {@code tools/call} it sends, by the
 * progress token Dockhand gave the call, so that a cancelled call can be named in {@code notifications/cancelled}. The
 * SDK's client picks the ids itself and offers no way to cancel a request at the server.
 */
final class CallTracker implements McpClientTransport {
    private final McpClientTransport inner;
    private final Map<String, Object> requestIds = new ConcurrentHashMap<>();

    CallTracker(McpClientTransport inner) {
        this.inner = inner;
    }

    McpClientTransport inner() {
        return inner;
    }

    /**
     * Tells the server to stop the call sent with {@code token}, when it was sent; the notification goes out without
     * waiting, and a server that is gone is not an error.
     */
    void cancel(String token, String reason) {
        Object id = requestIds.remove(token);
        if (id == null) {
            return;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("requestId", id);
        params.put("reason", reason);
        inner.sendMessage(
                        new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled", params))
                .onErrorResume(gone -> Mono.empty())
                .subscribe();
    }

    void forget(String token) {
        requestIds.remove(token);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request
                && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
                && request.params() instanceof McpSchema.CallToolRequest call
                && call.meta() != null
                && call.meta().get("progressToken") != null) {
            requestIds.put(String.valueOf(call.meta().get("progressToken")), request.id());
        }
        return inner.sendMessage(message);
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return inner.connect(handler);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        inner.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return inner.closeGracefully();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return inner.unmarshalFrom(data, type);
    }

    @Override
    public List<String> protocolVersions() {
        return inner.protocolVersions();
    }
}
