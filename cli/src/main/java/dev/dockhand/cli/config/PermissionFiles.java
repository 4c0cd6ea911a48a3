package dev.dockhand.cli.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.scheduler.PermissionRule;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Changes the permission rules in a settings file and nothing else: every other key and value comes back as it was
 * (numbers keep their digits, keys their order), the file is written beside itself and moved into place, so a crash
 * leaves the old file or the new one, and the new one is readable by its owner only. "Always allow in this project"
 * adds to {@code permissions.projects["<folder's real path>"].allow} of the user's own file; {@code /permissions}
 * removes from wherever a rule was written.
 */
public final class PermissionFiles {
    /** Keeps numbers as written: 1.50 stays 1.50, a big integer stays whole. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private PermissionFiles() {}

    /** Adds allow rules for {@code folder} to the user's file; a rule already there is not added twice. */
    public static void allowInFolder(Path userSettings, Path folder, List<String> rules) throws IOException {
        ObjectNode root = read(userSettings);
        ObjectNode block = object(object(object(root, "permissions"), "projects"), key(folder));
        ArrayNode allow = array(block, PermissionRule.Decision.ALLOW.key());
        for (String rule : rules) {
            boolean present = false;
            for (JsonNode existing : allow) {
                present |= existing.asText().equals(rule);
            }
            if (!present) {
                allow.add(rule);
            }
        }
        write(userSettings, root);
    }

    /**
     * Removes one rule from {@code permissions} of {@code file}, or from its block for {@code folder}. Returns whether
     * it was there.
     */
    public static boolean remove(Path file, Optional<Path> folder, PermissionRule.Decision decision, String rule)
            throws IOException {
        ObjectNode root = read(file);
        JsonNode block = root.path("permissions");
        if (folder.isPresent()) {
            block = block.path("projects").path(key(folder.get()));
        }
        if (!(block.get(decision.key()) instanceof ArrayNode list)) {
            return false;
        }
        boolean removed = false;
        for (int i = list.size() - 1; i >= 0; i--) {
            if (written(decision, list.get(i).asText()).equals(rule)) {
                list.remove(i);
                removed = true;
            }
        }
        if (removed) {
            write(file, root);
        }
        return removed;
    }

    /** A rule as its text reads once parsed, so spacing inside it does not hide it from removal. */
    private static String written(PermissionRule.Decision decision, String text) {
        try {
            return PermissionRule.parse(decision, text, "").text();
        } catch (IllegalArgumentException e) {
            return text.strip();
        }
    }

    private static String key(Path folder) {
        return FolderTrust.realPath(folder).toString();
    }

    private static ObjectNode read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return EXACT.createObjectNode();
        }
        String text = Files.readString(file);
        if (text.isBlank()) {
            return EXACT.createObjectNode();
        }
        JsonNode existing = EXACT.readTree(text);
        if (!(existing instanceof ObjectNode object)) {
            throw new IOException(file + " does not hold a JSON object");
        }
        return object;
    }

    private static ObjectNode object(ObjectNode parent, String key) throws IOException {
        JsonNode child = parent.get(key);
        if (child == null || child.isNull()) {
            return parent.putObject(key);
        }
        if (child instanceof ObjectNode object) {
            return object;
        }
        throw new IOException("'" + key + "' is not an object");
    }

    private static ArrayNode array(ObjectNode parent, String key) throws IOException {
        JsonNode child = parent.get(key);
        if (child == null || child.isNull()) {
            return parent.putArray(key);
        }
        if (child instanceof ArrayNode array) {
            return array;
        }
        throw new IOException("'" + key + "' is not a list");
    }

    private static void write(Path file, ObjectNode root) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        PrivateFiles.createFolders(parent);
        Path temp = parent.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        byte[] bytes = (EXACT.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        try (SeekableByteChannel channel =
                PrivateFiles.create(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
