package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CappedOutputTest {
    @Test
    void takesUpToTheLimitDropsTheRestAndSaysSo() throws IOException {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        CappedOutput capped = new CappedOutput(target, 5);

        capped.write("abc".getBytes(StandardCharsets.UTF_8));
        boolean afterThree = capped.exceeded();
        capped.write("defg".getBytes(StandardCharsets.UTF_8));
        capped.write('h');

        assertEquals(
                List.of("abcde", false, true),
                List.of(target.toString(StandardCharsets.UTF_8), afterThree, capped.exceeded()));
    }

    @Test
    void exactlyTheLimitIsNotTooMuch() throws IOException {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        CappedOutput capped = new CappedOutput(target, 3);

        capped.write("abc".getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of("abc", false), List.of(target.toString(StandardCharsets.UTF_8), capped.exceeded()));
    }
}
