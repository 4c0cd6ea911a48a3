package dev.dockhand.cli.config.edit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.config.Option;
import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reads a settings file as the user wrote it and writes it back changed: every other key kept in its order, every
 * number with its digits (1.50 stays 1.50, a big integer stays whole), the result checked by the strict settings
 * reader before it replaces the file in one move, so a failed write leaves the old file whole.
 */
final class SettingsFileEdit {
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private SettingsFileEdit() {}

    /** The file's object; an empty one when the file is missing or blank. */
    static ObjectNode read(Path file) throws IOException {
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
                SettingsFiles.read(file, Option.schema());
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

    /** The object under {@code key}, made when absent. */
    static ObjectNode object(ObjectNode parent, String key) throws IOException {
        JsonNode child = parent.get(key);
        if (child == null || child.isNull()) {
            return parent.putObject(key);
        }
        if (child instanceof ObjectNode object) {
            return object;
        }
        throw new IOException("'" + key + "' is not an object");
    }

    /** The list under {@code key}, made when absent. */
    static ArrayNode array(ObjectNode parent, String key) throws IOException {
        JsonNode child = parent.get(key);
        if (child == null || child.isNull()) {
            return parent.putArray(key);
        }
        if (child instanceof ArrayNode array) {
            return array;
        }
        throw new IOException("'" + key + "' is not a list");
    }

    /**
     * Writes {@code root} over {@code file}. The user's own file is written owner-only (it may hold tokens) and, when it
     * is a link, where the link points, so the link stays. A project's file ({@code <folder>/.dockhand/settings.json})
     * reached through a link is refused, the file or its {@code .dockhand} folder alike: the repository chose where the
     * link leads (a {@code .dockhand -> ../../.dockhand} puts the user's own file there), and neither may what was read
     * through it land in the project nor the project's rewrite replace the user's file.
     */
    static void write(Path named, ObjectNode root, boolean usersOwn) throws IOException {
        if (!usersOwn) {
            refuseLinkedProjectFile(named);
        }
        Path file = usersOwn ? target(named) : named;
        Path folder = file.toAbsolutePath().getParent();
        if (usersOwn) {
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
                            usersOwn ? PrivateFiles.create(temp, options) : Files.newByteChannel(temp, options);
                    var out = Channels.newOutputStream(channel)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
            }
            try {
                SettingsFiles.read(temp, Option.schema());
            } catch (SettingsException e) {
                throw new IOException(e.getMessage().replace(temp.toString(), named.toString()));
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

    /**
     * Refuses a project's file when a name between its project folder and it is a link, or when, links followed, it
     * lies outside the project folder.
     */
    private static void refuseLinkedProjectFile(Path named) throws IOException {
        Path file = named.toAbsolutePath().normalize();
        Path project = file.getParent().getParent();
        Path step = project;
        for (Path name : project.relativize(file)) {
            step = step.resolve(name);
            if (Files.isSymbolicLink(step)) {
                throw new IOException((step.equals(file)
                                ? named + " is a link to "
                                : named + " is reached through " + step + ", a link to ")
                        + Files.readSymbolicLink(step) + "; a project's settings are changed only in a file of their"
                        + " own");
            }
        }
        Path real = Workspace.realPathOf(file);
        if (!real.startsWith(project.toRealPath())) {
            throw new IOException(named + " lies outside its project, at " + real + "; a project's settings are changed"
                    + " only in a file of their own");
        }
    }

    /**
     * Dotfiles managers (GNU Stow, chezmoi, yadm's alternates) keep the settings file in a repository and link it into
     * {@code ~/.dockhand}; moving the new text over the link's own name would replace the link with a copy the
     * repository never sees.
     */
    private static Path target(Path file) throws IOException {
        if (!Files.isSymbolicLink(file)) {
            return file;
        }
        try {
            return file.toRealPath();
        } catch (NoSuchFileException e) {
            throw new IOException(file + " is a link to " + Files.readSymbolicLink(file)
                    + ", which does not exist; fix the link first");
        }
    }
}
