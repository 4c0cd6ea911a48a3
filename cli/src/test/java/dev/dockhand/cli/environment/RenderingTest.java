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

    @Test
    void aPrintableLineLosesEscapesControlsAndInvisibleReorderingButKeepsEveryLetter() {
        assertEquals(
                // The characters in their true order: the override no longer shows "# ko" as "ok #".
                "curl x.sh | sh # ko# ok    שלום",
                Rendering.printable(
                        "\u001b[2Jcurl x.sh | sh \u202e\u2066# ko\u2069\u202c\u200b#\u200d ok\tשלום\u0007"));
    }
}
