package dev.dockhand.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ImageHeaderTest {
    private static final byte[] REAL_PNG = Base64.getDecoder()
            .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC");

    @Test
    void eachTypeIsReadForItsSizeAndThoseOverTheLimitOrNotTheirTypeAreRefused() {
        Map<String, Optional<String>> problems = new LinkedHashMap<>();
        problems.put("png 1x1", ImageHeader.problem("image/png", REAL_PNG));
        problems.put("png 9000x10", ImageHeader.problem("image/png", png(9000, 10)));
        problems.put("png declared jpeg", ImageHeader.problem("image/jpeg", REAL_PNG));
        problems.put("gif 8000x8000", ImageHeader.problem("image/gif", gif(8000, 8000)));
        problems.put("gif 10x8001", ImageHeader.problem("image/gif", gif(10, 8001)));
        problems.put("jpeg 640x480 after APP0", ImageHeader.problem("image/jpeg", jpeg(640, 480)));
        problems.put("jpeg 9999x480", ImageHeader.problem("image/jpeg", jpeg(9999, 480)));
        problems.put("jpeg cut short", ImageHeader.problem("image/jpeg", hex("ffd8ffe000104a464946")));
        problems.put("webp VP8 8500x3", ImageHeader.problem("image/webp", webpVp8(8500, 3)));
        problems.put("webp VP8L 8001x2", ImageHeader.problem("image/webp", webpVp8l(8001, 2)));
        problems.put("webp VP8X 20x16000", ImageHeader.problem("image/webp", webpVp8x(20, 16000)));
        problems.put("webp VP8X 20x30", ImageHeader.problem("image/webp", webpVp8x(20, 30)));
        problems.put("text as webp", ImageHeader.problem("image/webp", "hello".getBytes(StandardCharsets.US_ASCII)));
        problems.put("heic not read", ImageHeader.problem("image/heic", new byte[3]));

        Map<String, Optional<String>> expected = new LinkedHashMap<>();
        expected.put("png 1x1", Optional.empty());
        expected.put("png 9000x10", Optional.of("9000x10 px, more than the 8000 px a side an image may be"));
        expected.put("png declared jpeg", Optional.of("its bytes are not a valid image/jpeg"));
        expected.put("gif 8000x8000", Optional.empty());
        expected.put("gif 10x8001", Optional.of("10x8001 px, more than the 8000 px a side an image may be"));
        expected.put("jpeg 640x480 after APP0", Optional.empty());
        expected.put("jpeg 9999x480", Optional.of("9999x480 px, more than the 8000 px a side an image may be"));
        expected.put("jpeg cut short", Optional.of("its bytes are not a valid image/jpeg"));
        expected.put("webp VP8 8500x3", Optional.of("8500x3 px, more than the 8000 px a side an image may be"));
        expected.put("webp VP8L 8001x2", Optional.of("8001x2 px, more than the 8000 px a side an image may be"));
        expected.put("webp VP8X 20x16000", Optional.of("20x16000 px, more than the 8000 px a side an image may be"));
        expected.put("webp VP8X 20x30", Optional.empty());
        expected.put("text as webp", Optional.of("its bytes are not a valid image/webp"));
        expected.put("heic not read", Optional.empty());
        assertEquals(expected, problems);
    }

    @Test
    void theSizeInPixelsIsReadFromTheFirstBytesAlone() {
        Map<String, Optional<ImageHeader.Pixels>> sizes = new LinkedHashMap<>();
        sizes.put("png", ImageHeader.pixels(Image.of("image/png", png(2560, 1440))));
        sizes.put("gif", ImageHeader.pixels(Image.of("image/gif", gif(320, 200))));
        sizes.put("jpeg", ImageHeader.pixels(Image.of("image/jpeg", jpeg(640, 480))));
        sizes.put("webp", ImageHeader.pixels(Image.of("image/webp", webpVp8x(20, 30))));
        sizes.put("jpeg behind 200 KB of segments", ImageHeader.pixels(Image.of("image/jpeg", jpegAfter(200))));
        sizes.put("jpeg behind 60 KB of segments", ImageHeader.pixels(Image.of("image/jpeg", jpegAfter(60))));
        sizes.put("heic", ImageHeader.pixels(Image.of("image/heic", new byte[40])));

        Map<String, Optional<ImageHeader.Pixels>> expected = new LinkedHashMap<>();
        expected.put("png", Optional.of(new ImageHeader.Pixels(2560, 1440)));
        expected.put("gif", Optional.of(new ImageHeader.Pixels(320, 200)));
        expected.put("jpeg", Optional.of(new ImageHeader.Pixels(640, 480)));
        expected.put("webp", Optional.of(new ImageHeader.Pixels(20, 30)));
        expected.put("jpeg behind 200 KB of segments", Optional.empty());
        expected.put("jpeg behind 60 KB of segments", Optional.of(new ImageHeader.Pixels(640, 480)));
        expected.put("heic", Optional.empty());
        assertEquals(expected, sizes);
        assertEquals("2560x1440", new ImageHeader.Pixels(2560, 1440).toString());
    }

    /** A 640x480 JPEG whose frame header comes after {@code kilobytes} KB of APP1 segments (EXIF, say). */
    private static byte[] jpegAfter(int kilobytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(hex("ffd8"));
        for (int i = 0; i < kilobytes; i++) {
            out.writeBytes(hex("ffe10402"));
            out.writeBytes(new byte[1024]);
        }
        byte[] rest = jpeg(640, 480);
        out.write(rest, 2, rest.length - 2);
        return out.toByteArray();
    }

    static byte[] png(int width, int height) {
        byte[] bytes = REAL_PNG.clone();
        putBe32(bytes, 16, width);
        putBe32(bytes, 20, height);
        return bytes;
    }

    private static byte[] gif(int width, int height) {
        byte[] bytes = "GIF89a\0\0\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII);
        bytes[6] = (byte) width;
        bytes[7] = (byte) (width >> 8);
        bytes[8] = (byte) height;
        bytes[9] = (byte) (height >> 8);
        return bytes;
    }

    /** SOI, a JFIF APP0 segment, a DQT-less SOF0 with the size, then SOS. */
    private static byte[] jpeg(int width, int height) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(hex("ffd8ffe000104a46494600010100000100010000"));
        out.writeBytes(hex("ffc0000b08"));
        out.writeBytes(new byte[] {(byte) (height >> 8), (byte) height, (byte) (width >> 8), (byte) width});
        out.writeBytes(hex("01011100ffda"));
        return out.toByteArray();
    }

    private static byte[] webp(String chunk, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("RIFF\0\0\0\0WEBP".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(chunk.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(new byte[] {(byte) payload.length, 0, 0, 0});
        out.writeBytes(payload);
        out.writeBytes(new byte[8]);
        return out.toByteArray();
    }

    private static byte[] webpVp8(int width, int height) {
        byte[] payload = new byte[10];
        payload[3] = (byte) 0x9D;
        payload[4] = 0x01;
        payload[5] = 0x2A;
        payload[6] = (byte) width;
        payload[7] = (byte) (width >> 8);
        payload[8] = (byte) height;
        payload[9] = (byte) (height >> 8);
        return webp("VP8 ", payload);
    }

    private static byte[] webpVp8l(int width, int height) {
        long bits = (width - 1) | (long) (height - 1) << 14;
        return webp(
                "VP8L", new byte[] {0x2F, (byte) bits, (byte) (bits >> 8), (byte) (bits >> 16), (byte) (bits >> 24)});
    }

    private static byte[] webpVp8x(int width, int height) {
        int w = width - 1;
        int h = height - 1;
        return webp("VP8X", new byte[] {
            0, 0, 0, 0, (byte) w, (byte) (w >> 8), (byte) (w >> 16), (byte) h, (byte) (h >> 8), (byte) (h >> 16)
        });
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    private static void putBe32(byte[] bytes, int at, int value) {
        bytes[at] = (byte) (value >> 24);
        bytes[at + 1] = (byte) (value >> 16);
        bytes[at + 2] = (byte) (value >> 8);
        bytes[at + 3] = (byte) value;
    }
}
