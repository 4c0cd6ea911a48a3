package dev.dockhand.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.settings.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactionSettingsTest {
    private static final Path USER = Path.of("/home/u/.dockhand/settings.json");
    private static final Path PROJECT = Path.of("/w/.dockhand/settings.json");

    private static Settings.Redaction patterns(String id) {
        return new Settings.Redaction(null, List.of(new Settings.RedactionPattern(id, "X\\{([^}]*)\\}")), null, null);
    }

    private static List<String> expanding(boolean trusted) {
        RedactionSettings settings =
                RedactionSettings.of(patterns("mine"), USER, patterns("theirs"), PROJECT, trusted, new ArrayList<>());
        return settings.patterns().stream()
                .map(rule -> rule.id() + (rule.expands() ? " expands" : " redacts only"))
                .toList();
    }

    @Test
    void anUntrustedProjectsPatternsRedactButNeverExpandIntoACall() {
        assertEquals(List.of("mine expands", "theirs redacts only"), expanding(false));
    }

    @Test
    void aTrustedProjectsPatternsExpandLikeTheUsersOwn() {
        assertEquals(List.of("mine expands", "theirs expands"), expanding(true));
    }
}
