package dev.dockhand.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.conversation.Image;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.LoggerFactory;

/**
 * Where a transcript keeps the images of its tool results. A small image goes inline in its line; a larger one goes
 * once, as its bytes, into {@code <session-id>.images/<sha256>} beside the transcript, and the line names it by hash:
 * an image that comes back on every call (a screenshot of an unchanged page) costs its size once, and the JSONL file
 * stays small enough to read and list. Read back, a stored image is the same base64 text it was, so a resumed session
 * sends the same request.
 */
final class SessionImages {
    /** Images up to this much base64 text (about 12 KB of image) stay inline: a file each would cost more. */
    static final int INLINE_CHARS = 16 * 1024;

    private final Path folder;

    SessionImages(Path transcript) {
        String name = transcript.getFileName().toString();
        this.folder = transcript.resolveSibling(
                (name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name) + ".images");
    }

    Path folder() {
        return folder;
    }

    /**
     * The record of {@code image} for a transcript line, storing its bytes first when it is large. When they cannot
     * be stored (a full disk), the image goes inline instead: a bigger line, never a lost image.
     */
    ObjectNode store(Image image) {
        ObjectNode node = Json.object().put("mime_type", image.mimeType());
        if (image.data().length() <= INLINE_CHARS) {
            return node.put("data", image.data());
        }
        String hash = image.sha256();
        try {
            write(folder.resolve(hash), image.decoded());
            return node.put("sha256", hash).put("bytes", image.bytes());
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(SessionImages.class).warn("cannot store an image in {}; kept inline", folder, e);
            return node.put("data", image.data());
        }
    }

    /** More than any provider takes (their limits are a few megabytes); a larger file is not an image we stored. */
    private static final int MAX_STORED_BYTES = 32 << 20;

    /** The image a record names; empty when its file is gone or does not hold it any more. */
    Optional<Image> load(JsonNode record) {
        String mimeType = record.path("mime_type").asText("");
        if (record.hasNonNull("data")) {
            return Optional.of(new Image(mimeType, record.path("data").asText()));
        }
        String hash = record.path("sha256").asText("");
        if (!hash.matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        Path file = folder.resolve(hash);
        // A session folder may have been copied from elsewhere: only a regular file is read (never a link, a pipe
        // or a device), and no more of it than the largest image a record can name.
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        try (java.io.InputStream in = Files.newInputStream(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(MAX_STORED_BYTES + 1);
            if (bytes.length > MAX_STORED_BYTES) {
                return Optional.empty();
            }
            Image image = Image.of(mimeType, bytes);
            return image.sha256().equals(hash) ? Optional.of(image) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** What stands in a resumed result for an image whose file is gone. */
    static String lost(JsonNode record) {
        long bytes = record.path("bytes").asLong();
        return "[image: " + record.path("mime_type").asText("") + ", " + bytes
                + " bytes, not shown: its copy in the session files is gone]";
    }

    /** Writes the file once: a file of this name already holds these bytes, as the name is their hash. */
    private void write(Path file, byte[] bytes) throws IOException {
        if (Files.exists(file)) {
            return;
        }
        PrivateFiles.createFolders(folder);
        // Written aside and moved into place, so a killed process never leaves a cut image under the final name.
        Path partial = folder.resolve(file.getFileName() + "." + UUID.randomUUID() + ".partial");
        try (SeekableByteChannel channel =
                PrivateFiles.create(partial, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
        try {
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
