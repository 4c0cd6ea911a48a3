package dev.dockhand.cli.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

public class RenderingTest {
    @Test
    void writesDurationsTheSameWhateverTheDefaultLocale() {
        assertEquals(
                List.of("850 ms", "1.5 s", "2 m 5 s"),
                InLocale.get(
                        Locale.GERMANY,
                        () -> List.of(
                                Rendering.duration(Duration.ofMillis(850)),
                                Rendering.duration(Duration.ofMillis(1_500)),
                                Rendering.duration(Duration.ofSeconds(125)))));
    }
}
