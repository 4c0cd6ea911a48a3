package dev.dockhand.core.conversation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * An image a tool returned beside its text: its MIME type ({@code image/png}) and its bytes as standard base64 with
 * padding and no line breaks, the form every provider's API takes. {@link #fromBase64} brings any valid base64 to that
 * form, so a request is the same bytes whether the image came from a tool or back from a session file.
 */
public record Image(String mimeType, String data) {

    /**
     * The most an image may hold, decoded: Anthropic's 5 MB limit on an image, the strictest of the providers', is on
     * its base64 text, which is 4/3 of the bytes. A larger image is described to the model rather than sent.
     */
    public static final long MAX_BYTES = 5L * 1024 * 1024 / 4 * 3;

    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    public Image {
        Objects.requireNonNull(mimeType, "mimeType");
        Objects.requireNonNull(data, "data");
        mimeType = mimeType.strip().toLowerCase(Locale.ROOT);
    }

    /**
     * An image from base64 text as a tool or server sent it (line breaks and missing padding are accepted).
     *
     * @throws IllegalArgumentException when the text is not base64
     */
    public static Image fromBase64(String mimeType, String base64) {
        // Not the MIME decoder: it skips any character outside the alphabet, so garbage would pass as an image.
        byte[] bytes = Base64.getDecoder().decode(WHITESPACE.matcher(base64).replaceAll(""));
        return of(mimeType, bytes);
    }

    public static Image of(String mimeType, byte[] bytes) {
        return new Image(mimeType, Base64.getEncoder().encodeToString(bytes));
    }

    /** How many bytes the image holds, from the length of its base64 text. */
    public long bytes() {
        int padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
        return (long) data.length() / 4 * 3 - padding;
    }

    public byte[] decoded() {
        return Base64.getDecoder().decode(data);
    }

    /** The image as a {@code data:} URL, how the OpenAI APIs take an inline image. */
    public String dataUrl() {
        return "data:" + mimeType + ";base64," + data;
    }

    /** The SHA-256 of the image's bytes, in hex: its name where it is stored once for many mentions. */
    public String sha256() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            // The canonical base64 text stands for the bytes one to one, and hashing it spares a decode.
            return HexFormat.of().formatHex(digest.digest(data.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The size for people: 512 bytes, 12 KB, 1.4 MB. */
    public String size() {
        long bytes = bytes();
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        if (bytes < 1024 * 1024) {
            return Math.round(bytes / 1024.0) + " KB";
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
    }

    /** What the model reads in the image's place when it is not sent: {@code [image: image/png, 12 KB, not shown: why]}. */
    public String describe(String why) {
        return label("not shown: " + why);
    }

    /** The image named in a line of text with a note on where it is: {@code [image: image/png, 12 KB, note]}. */
    public String label(String note) {
        return "[image: " + mimeType + ", " + size() + ", " + note + "]";
    }

    /** Leaves the data out, which would fill a log or an assertion message. */
    @Override
    public String toString() {
        return "Image[" + mimeType + ", " + size() + ", sha256 " + sha256().substring(0, 12) + "]";
    }
}
