package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

public class WarmupTest {
    private static List<Boolean> helps(String[]... commandLines) {
        return java.util.Arrays.stream(commandLines).map(Warmup::helpsWith).toList();
    }

    @Test
    void warmsUpOnlyForRunsThatTalkToAModel() {
        assertEquals(
                List.of(true, true, true, false, false, false, false, false, false),
                helps(
                        new String[] {"-p", "hello"},
                        new String[] {},
                        new String[] {"-p", "explain --help"},
                        new String[] {"--version"},
                        new String[] {"-V"},
                        new String[] {"--model", "m", "--help"},
                        new String[] {"-h"},
                        new String[] {"config"},
                        new String[] {"sessions"}));
    }

    @Test
    void startsTlsOnlyForAModelReachedOverHttps() {
        assertEquals(
                List.of(true, true, false, false, false),
                java.util.stream.Stream.of(
                                "https://api.openai.com/v1",
                                "HTTPS://example.test",
                                "http://127.0.0.1:11434",
                                "localhost:11434",
                                "httpsx://odd")
                        .map(Warmup::overTls)
                        .toList());
    }
}
