package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.StreamedCalls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rebuilds whole tool calls from streamed {@code delta.tool_calls} fragments. Calls are keyed by {@code index}; the id
 * and name arrive once and the arguments in pieces, several calls possibly interleaved. Servers differ: some omit the
 * index or the id, some repeat the id on every fragment or reuse one id for two calls. A call with no id, or with an
 * id another call of the reply already has, gets a fresh unique one so the results can be matched; a call with no
 * name gets {@link ToolCall#MISSING_NAME}, so the scheduler answers it instead of it vanishing without a word.
 */
final class ToolCallAssembler {
    private final Map<Integer, Partial> byIndex = new LinkedHashMap<>();
    private Integer lastIndex;

    /** Feeds one element of a delta's {@code tool_calls} array. */
    void accept(JsonNode fragment) {
        Integer index = fragment.hasNonNull("index") ? fragment.get("index").asInt() : null;
        String id = text(fragment, "id");
        if (index == null) {
            index = indexWithoutIndex(id);
        }
        Partial partial = byIndex.computeIfAbsent(index, i -> new Partial());
        lastIndex = index;
        if (partial.id == null && id != null && !id.isEmpty()) {
            partial.id = id;
        }
        JsonNode function = fragment.path("function");
        String name = text(function, "name");
        if (name != null && !name.isEmpty() && !name.equals(partial.name.toString())) {
            // Most servers send the name once; a few stream it in pieces, and a few repeat it whole.
            partial.name.append(name);
        }
        String arguments = text(function, "arguments");
        if (arguments != null) {
            partial.arguments.append(arguments);
        }
    }

    /** Fragments without an index continue the last call unless they open a new one by bringing a new id. */
    private int indexWithoutIndex(String id) {
        if (lastIndex == null) {
            return 0;
        }
        Partial last = byIndex.get(lastIndex);
        boolean opensNewCall = id != null && !id.isEmpty() && last.id != null && !last.id.equals(id);
        return opensNewCall ? lastIndex + 1 : lastIndex;
    }

    boolean isEmpty() {
        return byIndex.isEmpty();
    }

    /**
     * The assembled calls in index order, each with a unique id and a name. Only a fragment that brought nothing at
     * all (no id, no name, no arguments) is left out: there is no call in it to answer.
     */
    List<ToolCall> calls() {
        List<ToolCall> calls = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        byIndex.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            Partial partial = entry.getValue();
            if (partial.id == null && partial.name.length() == 0 && partial.arguments.length() == 0) {
                return;
            }
            String id = partial.id;
            if (id == null || !seen.add(id)) {
                id = ToolCall.freshId();
                seen.add(id);
            }
            calls.add(new ToolCall(id, StreamedCalls.name(partial.name.toString()), partial.arguments.toString()));
        });
        return calls;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static final class Partial {
        String id;
        final StringBuilder name = new StringBuilder();
        final StringBuilder arguments = new StringBuilder();
    }
}
