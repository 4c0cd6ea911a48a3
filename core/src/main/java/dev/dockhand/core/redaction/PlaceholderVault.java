package dev.dockhand.core.redaction;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.PrivateFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The session's placeholders: each secret text gets {@code [REDACTED:<rule-id>:<n>]} the first time it is redacted,
 * {@code n} counting per rule from 1, and keeps it for the session, so the model sees one name per value and can write
 * it back. Attached to a file (owner-only, beside the session's transcript), every new placeholder is appended to it
 * as it is made, so a resumed session maps the placeholders of its transcript again.
 */
final class PlaceholderVault {
    private final Map<String, String> bySecret = new HashMap<>();
    private final Map<String, String> byPlaceholder = new LinkedHashMap<>();
    /** The placeholders whose value is never put back into a call: see {@link SecretRules.Rule#expands}. */
    private final Set<String> unexpanded = new HashSet<>();

    private final Map<String, Integer> counters = new HashMap<>();
    private final Consumer<String> onFailure;
    private Path file;
    private boolean failed;

    PlaceholderVault(Consumer<String> onFailure) {
        this.onFailure = onFailure;
    }

    /**
     * The placeholder for {@code secret}, made now if it has none; {@code expands} says whether a call's arguments
     * may get it back. A secret keeps its first placeholder, and that placeholder stops expanding for good once the
     * secret is found by a rule whose placeholders do not expand.
     */
    synchronized String placeholder(String secret, String id, boolean expands) {
        String known = bySecret.get(secret);
        if (known != null) {
            if (!expands && unexpanded.add(known)) {
                append(known, secret, false);
            }
            return known;
        }
        int n = counters.merge(id, 1, Integer::sum);
        String placeholder = "[REDACTED:" + id + ":" + n + "]";
        while (byPlaceholder.containsKey(placeholder)) {
            n = counters.merge(id, 1, Integer::sum);
            placeholder = "[REDACTED:" + id + ":" + n + "]";
        }
        put(placeholder, secret);
        if (!expands) {
            unexpanded.add(placeholder);
        }
        append(placeholder, secret, expands);
        return placeholder;
    }

    synchronized Optional<String> secret(String placeholder) {
        return Optional.ofNullable(byPlaceholder.get(placeholder));
    }

    /** The value a call's arguments get for {@code placeholder}; empty for one that does not expand. */
    synchronized Optional<String> expansion(String placeholder) {
        return unexpanded.contains(placeholder) ? Optional.empty() : secret(placeholder);
    }

    /** Every secret with its placeholder's rule id, to be found again wherever it appears. */
    synchronized List<SecretScanner.Needle> needles() {
        List<SecretScanner.Needle> needles = new ArrayList<>(byPlaceholder.size());
        byPlaceholder.forEach((placeholder, secret) ->
                needles.add(new SecretScanner.Needle(secret, idOf(placeholder), !unexpanded.contains(placeholder))));
        return needles;
    }

    synchronized int size() {
        return byPlaceholder.size();
    }

    /**
     * From now on, the placeholders are those of {@code sessionFile}: the ones it holds (a resumed session) and the
     * ones made from now on, appended to it. The placeholders of another session are forgotten.
     */
    synchronized void attach(Path sessionFile) {
        bySecret.clear();
        byPlaceholder.clear();
        unexpanded.clear();
        counters.clear();
        failed = false;
        file = sessionFile;
        try (BufferedReader reader = Files.newBufferedReader(sessionFile, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                read(line);
            }
        } catch (NoSuchFileException none) {
            // A new session: the file is made with its first placeholder.
        } catch (IOException e) {
            fail("the placeholders of the resumed session could not be read from " + sessionFile + " (" + e.getMessage()
                    + "); placeholders in its history stay as they are");
        }
    }

    private void read(String line) {
        try {
            JsonNode node = Json.MAPPER.readTree(line);
            String placeholder = node.path("placeholder").asText("");
            String secret = node.path("secret").asText("");
            if (SecretScanner.PLACEHOLDER.matcher(placeholder).matches() && !secret.isEmpty()) {
                put(placeholder, secret);
                if (!node.path("expands").asBoolean(true)) {
                    unexpanded.add(placeholder);
                }
                String id = idOf(placeholder);
                int n = Integer.parseInt(
                        placeholder.substring(placeholder.lastIndexOf(':') + 1, placeholder.length() - 1));
                counters.merge(id, n, Math::max);
            }
        } catch (IOException | RuntimeException cut) {
            // A line cut by a crash: the placeholders before it still map.
        }
    }

    private void put(String placeholder, String secret) {
        bySecret.putIfAbsent(secret, placeholder);
        byPlaceholder.put(placeholder, secret);
    }

    private void append(String placeholder, String secret, boolean expands) {
        if (file == null || failed) {
            return;
        }
        var entry = Json.object().put("placeholder", placeholder).put("secret", secret);
        if (!expands) {
            entry.put("expands", false);
        }
        String line = Json.write(entry) + "\n";
        try {
            PrivateFiles.createFolders(file.getParent());
            try (Writer writer = Channels.newWriter(
                    PrivateFiles.create(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND)),
                    StandardCharsets.UTF_8)) {
                writer.write(line);
            }
        } catch (IOException | RuntimeException e) {
            fail("placeholders could not be saved in " + file + " (" + e.getMessage() + "); a resumed session will"
                    + " not turn them back into their values");
        }
    }

    private void fail(String problem) {
        if (!failed) {
            failed = true;
            onFailure.accept(problem);
        }
    }

    static String idOf(String placeholder) {
        return placeholder.substring("[REDACTED:".length(), placeholder.lastIndexOf(':'));
    }
}
