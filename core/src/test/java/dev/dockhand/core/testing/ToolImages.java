package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;

/**
 * A conversation whose tool round returned an image, for the request writers' tests: the first of two parallel calls
 * returned a screenshot beside its text, the second text alone, then the model answered and the user asked again, so
 * a writer that carries images after the round must place them between the last result and the answer.
 */
public final class ToolImages {
    /** A real 1×1 PNG (69 bytes), so the rules' check of the bytes against the declared type passes. */
    public static final String PNG_BASE64 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

    public static final Image PNG = new Image("image/png", PNG_BASE64);

    private ToolImages() {}

    /**
     * A PNG of {@code width} x {@code height} px that is {@code bytes} long: the signature, the header chunk with the
     * size, a private ancillary chunk of filler (decoders skip it) and the end chunk, each with its CRC; what the APIs'
     * checks of the type and the size read. {@code seed} opens the filler, so that images of one size differ; the rest
     * of it is zeros, which cost nothing to make.
     */
    public static Image png(int width, int height, int bytes, long seed) {
        java.nio.ByteBuffer png = java.nio.ByteBuffer.allocate(bytes);
        png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        byte[] header = java.nio.ByteBuffer.allocate(13)
                .putInt(width)
                .putInt(height)
                .put(new byte[] {8, 2, 0, 0, 0})
                .array();
        chunk(png, "IHDR", header);
        // What is left after the signature, the three chunks' lengths, types and CRCs, and the header's 13 bytes.
        byte[] filler = new byte[bytes - 8 - 3 * 12 - 13];
        java.nio.ByteBuffer.wrap(filler).putLong(seed);
        chunk(png, "fiLl", filler);
        chunk(png, "IEND", new byte[0]);
        return Image.of("image/png", png.array());
    }

    private static void chunk(java.nio.ByteBuffer png, String type, byte[] data) {
        byte[] name = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(name);
        crc.update(data);
        png.putInt(data.length).put(name).put(data).putInt((int) crc.getValue());
    }

    public static List<Message> conversation() {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("look"),
                new Message.Assistant(
                        "",
                        List.of(new ToolCall("c1", "shot", "{}"), new ToolCall("c2", "read_file", "{\"path\":\"a\"}"))),
                new Message.ToolResult("c1", "shot", "Screenshot taken.", false, List.of(PNG)),
                new Message.ToolResult("c2", "read_file", "A", false),
                new Message.Assistant("Done.", List.of()),
                new Message.User("again?"));
    }

    /** {@code providers/<provider>/<name>.json}, a request body written from the provider's API reference. */
    public static JsonNode request(String provider, String name) {
        return Json.read(ProviderFixtures.text("/providers/" + provider + "/" + name + ".json")
                .replace("${PNG}", PNG_BASE64));
    }
}
