package dev.dockhand.core.conversation;

import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * What an image's first bytes say: whether they are the type it is declared as, and its size in pixels. An API answers
 * an image whose bytes are not its type, or one larger than it takes, with a 400, and an image in the history would make
 * every later request of the session fail the same way: so such an image is described, never sent.
 */
public final class ImageHeader {
    /** The most pixels an image may have on a side: Anthropic's limit, the strictest of the providers'. */
    public static final int MAX_SIDE = 8000;

    private ImageHeader() {}

    /**
     * How many base64 characters of an image {@link #pixels(Image)} decodes: 96 KB, past the 64 KB an APP segment of a
     * JPEG (its EXIF) can hold before the frame header; the other types put their size in their first 30 bytes.
     */
    private static final int HEADER_CHARS = 128 * 1024;

    /** The types whose headers this reads. */
    private static final Set<String> READ = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");

    /** An image's size in pixels, written as people read it: {@code 2560x1440}. */
    public record Pixels(int width, int height) {
        @Override
        public String toString() {
            return width + "x" + height;
        }
    }

    /**
     * The image's size in pixels as its header gives it, read from the first bytes only, so that it costs little
     * whatever the image's size; empty for a type this does not read, or a header that is not its type's.
     */
    public static Optional<Pixels> pixels(Image image) {
        String data = image.data();
        String head = data.length() <= HEADER_CHARS ? data : data.substring(0, HEADER_CHARS);
        try {
            return Optional.ofNullable(
                            size(image.mimeType(), Base64.getDecoder().decode(head)))
                    .map(size -> new Pixels(size[0], size[1]));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }

    /** Width and height, or null when the bytes are not a header of the type or the type is not one this reads. */
    private static int[] size(String mimeType, byte[] bytes) {
        return switch (mimeType) {
            case "image/png" -> png(bytes);
            case "image/jpeg" -> jpeg(bytes);
            case "image/gif" -> gif(bytes);
            case "image/webp" -> webp(bytes);
            default -> null;
        };
    }

    /**
     * Why the image cannot be sent, or empty when it can; only the types this reads (PNG, JPEG, GIF, WebP) are checked.
     */
    public static Optional<String> problem(String mimeType, byte[] bytes) {
        if (!READ.contains(mimeType)) {
            return Optional.empty();
        }
        int[] size = size(mimeType, bytes);
        if (size == null) {
            return Optional.of("its bytes are not a valid " + mimeType);
        }
        if (size[0] > MAX_SIDE || size[1] > MAX_SIDE) {
            return Optional.of(
                    size[0] + "x" + size[1] + " px, more than the " + MAX_SIDE + " px a side an image may be");
        }
        return Optional.empty();
    }

    /** {@code problem} of an image's decoded bytes. */
    public static Optional<String> problem(Image image) {
        try {
            return problem(image.mimeType(), image.decoded());
        } catch (IllegalArgumentException notBase64) {
            return Optional.of("its data is not base64");
        }
    }

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    /** The IHDR chunk, which the format puts first: width and height as big-endian 32-bit numbers. */
    private static int[] png(byte[] b) {
        if (b.length < 24 || !starts(b, 0, PNG) || !starts(b, 12, ascii("IHDR"))) {
            return null;
        }
        return new int[] {side(be32(b, 16)), side(be32(b, 20))};
    }

    /** The logical screen: width and height as little-endian 16-bit numbers after "GIF87a" or "GIF89a". */
    private static int[] gif(byte[] b) {
        if (b.length < 10 || b[0] != 'G' || b[1] != 'I' || b[2] != 'F' || b[3] != '8') {
            return null;
        }
        return new int[] {le16(b, 6), le16(b, 8)};
    }

    /** The first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC), found by walking the segments. */
    private static int[] jpeg(byte[] b) {
        if (b.length < 3 || (b[0] & 0xFF) != 0xFF || (b[1] & 0xFF) != 0xD8 || (b[2] & 0xFF) != 0xFF) {
            return null;
        }
        int at = 2;
        while (at + 3 < b.length) {
            if ((b[at] & 0xFF) != 0xFF) {
                return null;
            }
            int marker = b[at + 1] & 0xFF;
            if (marker == 0xFF) {
                at++; // fill byte
                continue;
            }
            if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
                at += 2; // standalone markers have no length
                continue;
            }
            if (marker == 0xD9 || marker == 0xDA) {
                return null; // image data or its end before any frame header
            }
            int length = be16(b, at + 2);
            boolean frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
            if (frame) {
                if (at + 9 > b.length || length < 7) {
                    return null;
                }
                return new int[] {be16(b, at + 7), be16(b, at + 5)};
            }
            if (length < 2) {
                return null;
            }
            at += 2 + length;
        }
        return null;
    }

    /** The RIFF container's first chunk: lossy VP8, lossless VP8L, or the extended VP8X's canvas. */
    private static int[] webp(byte[] b) {
        if (b.length < 30 || !starts(b, 0, ascii("RIFF")) || !starts(b, 8, ascii("WEBP"))) {
            return null;
        }
        if (starts(b, 12, ascii("VP8 "))) {
            if ((b[23] & 0xFF) != 0x9D || (b[24] & 0xFF) != 0x01 || (b[25] & 0xFF) != 0x2A) {
                return null;
            }
            return new int[] {le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF};
        }
        if (starts(b, 12, ascii("VP8L"))) {
            if ((b[20] & 0xFF) != 0x2F) {
                return null;
            }
            long bits = (b[21] & 0xFFL) | (b[22] & 0xFFL) << 8 | (b[23] & 0xFFL) << 16 | (b[24] & 0xFFL) << 24;
            return new int[] {(int) (bits & 0x3FFF) + 1, (int) ((bits >> 14) & 0x3FFF) + 1};
        }
        if (starts(b, 12, ascii("VP8X"))) {
            return new int[] {le24(b, 24) + 1, le24(b, 27) + 1};
        }
        return null;
    }

    private static int side(long pixels) {
        return (int) Math.min(pixels, Integer.MAX_VALUE);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static boolean starts(byte[] b, int at, byte[] prefix) {
        return b.length >= at + prefix.length && Arrays.equals(b, at, at + prefix.length, prefix, 0, prefix.length);
    }

    private static long be32(byte[] b, int at) {
        return (b[at] & 0xFFL) << 24 | (b[at + 1] & 0xFFL) << 16 | (b[at + 2] & 0xFFL) << 8 | (b[at + 3] & 0xFFL);
    }

    private static int be16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }

    private static int le16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static int le24(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16;
    }
}
