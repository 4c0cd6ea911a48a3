package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

public class MainTest {
    @Test
    void takesLocaleDataFromTheRootSetUnlessTheUserChoseProviders() {
        Properties untouched = new Properties();
        Main.preferRootLocaleData(untouched);
        Properties chosen = new Properties();
        chosen.setProperty("java.locale.providers", "CLDR,SPI");
        Main.preferRootLocaleData(chosen);

        assertEquals(Map.of("java.locale.providers", "FALLBACK"), untouched);
        assertEquals(Map.of("java.locale.providers", "CLDR,SPI"), chosen);
    }
}
