package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TextFilesTest {
    @Test
    void tellsTheModelSizesTheSameWayWhateverTheUsersLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals(
                    List.of("532 B", "12.4 KB", "3.1 MB"),
                    List.of(TextFiles.size(532), TextFiles.size(12_700), TextFiles.size(3_250_000)));
        } finally {
            Locale.setDefault(before);
        }
    }
}
