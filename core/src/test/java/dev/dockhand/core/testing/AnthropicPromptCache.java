package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Anthropic's prompt cache as its documentation describes it, for a scripted Messages API to report the usage the
 * real one would. The prompt is read in the API's order (model, tools, system, the thinking setting, then the messages'
 * blocks); each {@code cache_control} mark ends a prefix. A request reads from the cache the longest marked prefix an
 * earlier request wrote, and writes every marked prefix at least {@code minimumTokens} long; billed as written are the
 * tokens from the end of what it read to its last mark, as input those after it. The API also finds a cached prefix up
 * to 20 blocks before a mark; that look-back is left out, so a writer must mark where the previous request ended.
 * Tokens are counted as characters / 4 over the serialized prefix, marks left out (they do not change the prefix).
 */
public final class AnthropicPromptCache {
    private final int minimumTokens;
    private final Set<String> written = new HashSet<>();

    /** @param minimumTokens the model's shortest cacheable prefix (1,024 for Sonnet 4) */
    public AnthropicPromptCache(int minimumTokens) {
        this.minimumTokens = minimumTokens;
    }

    /** The usage the API reports for {@code request} ({@code input_tokens} and the two cache counts). */
    public synchronized ObjectNode usage(JsonNode request) {
        List<String> segments = new ArrayList<>();
        List<Integer> marks = new ArrayList<>();
        segments.add("model:" + request.path("model").asText());
        for (JsonNode tool : request.path("tools")) {
            add(segments, marks, "tool:", tool);
        }
        JsonNode system = request.path("system");
        if (system.isTextual()) {
            segments.add("system:" + system.asText());
        }
        for (JsonNode block : system) {
            add(segments, marks, "system:", block);
        }
        // Changing the thinking setting invalidates the cached messages, not the tools or system prompt.
        segments.add("thinking:" + Json.write(request.path("thinking")));
        for (JsonNode message : request.path("messages")) {
            for (JsonNode block : message.path("content")) {
                add(segments, marks, message.path("role").asText() + ":", block);
            }
        }
        long total = tokens(segments, segments.size());
        long read = 0;
        long lastMark = 0;
        for (int mark : marks) {
            String key = key(segments, mark);
            long tokens = tokens(segments, mark);
            if (written.contains(key)) {
                read = Math.max(read, tokens);
            }
            if (tokens >= minimumTokens) {
                written.add(key);
                lastMark = tokens;
            }
        }
        long write = Math.max(0, lastMark - read);
        return Json.object()
                .put("input_tokens", total - read - write)
                .put("cache_creation_input_tokens", write)
                .put("cache_read_input_tokens", read);
    }

    private static void add(List<String> segments, List<Integer> marks, String role, JsonNode block) {
        ObjectNode bare = block.deepCopy();
        boolean marked = bare.remove("cache_control") != null;
        segments.add(role + Json.write(bare));
        if (marked) {
            marks.add(segments.size());
        }
    }

    private static long tokens(List<String> segments, int end) {
        long characters = 0;
        for (String segment : segments.subList(0, end)) {
            characters += segment.length();
        }
        return characters / 4;
    }

    private static String key(List<String> segments, int end) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String segment : segments.subList(0, end)) {
                digest.update(segment.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
