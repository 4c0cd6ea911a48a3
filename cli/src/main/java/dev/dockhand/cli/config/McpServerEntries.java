package dev.dockhand.cli.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Adds and removes one entry of {@code mcpServers} in a settings file, for {@code dockhand mcp add} and {@code remove}.
 * Every other key and value of the file is written back as it was read (numbers digit for digit; the layout becomes
 * two-space JSON), the result is checked to be a settings file Dockhand reads before it replaces the old one, and it
 * replaces it in one move, so a crash leaves the old file or the new one. The user's file is owner-only from its first
 * byte: it holds tokens.
 */
public final class McpServerEntries {
    static final String KEY = "mcpServers";

    /** Keeps every number as written: 1.50 stays 1.50, not 1.5. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    /** Which settings file. */
    public enum Scope {
        /** {@code ~/.dockhand/settings.json}: the user's, in every folder. */
        USER,
        /** {@code <folder>/.dockhand/settings.json}: the project's, counted only in a trusted folder. */
        PROJECT;

        public Path file(CliEnvironment environment) {
            return this == USER
                    ? environment.settingsHome().resolve("settings.json")
                    : environment.workingDirectory().resolve(".dockhand").resolve("settings.json");
        }
    }

    private McpServerEntries() {}

    /** Whether {@code file} has a server {@code name}. */
    public static boolean has(Path file, String name) throws IOException {
        JsonNode servers = read(file).get(KEY);
        return servers != null && servers.has(name);
    }

    /**
     * Writes the server {@code name} into {@code file}, which need not exist yet.
     *
     * @throws IOException with one sentence when the file cannot be read, is not a JSON object, or would not be a
     *     valid settings file afterwards
     */
    public static void add(Path file, String name, ObjectNode entry, boolean ownerOnly) throws IOException {
        ObjectNode root = read(file);
        JsonNode servers = root.get(KEY);
        ObjectNode all = servers instanceof ObjectNode object ? object : root.putObject(KEY);
        all.set(name, entry);
        write(file, root, ownerOnly);
    }

    /** Removes the server {@code name} from {@code file}; false when it had none, and then the file is untouched. */
    public static boolean remove(Path file, String name, boolean ownerOnly) throws IOException {
        ObjectNode root = read(file);
        if (!(root.get(KEY) instanceof ObjectNode servers) || !servers.has(name)) {
            return false;
        }
        servers.remove(name);
        write(file, root, ownerOnly);
        return true;
    }

    private static ObjectNode read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return EXACT.createObjectNode();
        }
        String text = Files.readString(file);
        if (text.isBlank()) {
            return EXACT.createObjectNode();
        }
        JsonNode root;
        try {
            root = EXACT.readTree(text);
        } catch (IOException e) {
            // The settings reader says where the JSON breaks, in the words Dockhand uses everywhere else.
            try {
                SettingsFiles.read(file);
            } catch (SettingsException bad) {
                throw new IOException(bad.getMessage().replaceAll("\\.$", "") + "; fix it first", e);
            }
            throw new IOException(file + " is not valid JSON; fix it first", e);
        }
        if (!(root instanceof ObjectNode object)) {
            throw new IOException(file + " does not hold a JSON object; fix it first");
        }
        return object;
    }

    private static void write(Path file, ObjectNode root, boolean ownerOnly) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        if (ownerOnly) {
            PrivateFiles.createFolders(folder);
        } else {
            Files.createDirectories(folder);
        }
        String text = EXACT.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        Path temp = folder.resolve(file.getFileName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try (SeekableByteChannel channel =
                            ownerOnly ? PrivateFiles.create(temp, options) : Files.newByteChannel(temp, options);
                    var out = Channels.newOutputStream(channel)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
            }
            try {
                SettingsFiles.read(temp);
            } catch (SettingsException e) {
                throw new IOException(e.getMessage().replace(temp.toString(), file.toString()));
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
