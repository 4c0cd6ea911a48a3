package dev.dockhand.cli.config.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustedFoldersTest {
    /** Reads numbers as written, so 1.50 and 1.5 are told apart. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    @TempDir
    Path temp;

    private Path settings;
    private Path project;

    @BeforeEach
    void setUp() throws Exception {
        settings = temp.resolve("home/settings.json");
        project = Files.createDirectories(temp.resolve("project"));
    }

    private JsonNode json(String text) throws Exception {
        return EXACT.readTree(text.replace('\'', '"'));
    }

    private static String permissions(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    private static List<String> fileNames(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void trustingAFolderKeepsTheUsersFileOwnerOnlyAndEveryOtherValueAsWritten() throws Exception {
        Files.createDirectories(settings.getParent());
        Files.writeString(
                settings,
                "{\"redaction\": {\"secretValues\": [\"my-database-password\"]}, \"maxCost\": 1.50,"
                        + " \"mcpServers\": {\"t\": {\"command\": \"/bin/t\", \"env\": {\"TOKEN\": \"ghp_xxx\"}}},"
                        + " \"trustedFolders\": {\"/elsewhere\": false}}\n");
        Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("rw-------"));

        TrustedFolders.record(settings, project, true);

        assertEquals("rw-------", permissions(settings));
        assertEquals(
                json("{'redaction': {'secretValues': ['my-database-password']}, 'maxCost': 1.50,"
                        + " 'mcpServers': {'t': {'command': '/bin/t', 'env': {'TOKEN': 'ghp_xxx'}}},"
                        + " 'trustedFolders': {'/elsewhere': false, '" + project.toRealPath() + "': true}}"),
                EXACT.readTree(Files.readString(settings)));
        assertEquals(List.of("settings.json"), fileNames(settings.getParent()));
    }

    @Test
    void theFirstDecisionCreatesAnOwnerOnlyFile() throws Exception {
        TrustedFolders.record(settings, project, false);

        assertEquals("rw-------", permissions(settings));
        assertEquals(
                json("{'trustedFolders': {'" + project.toRealPath() + "': false}}"),
                EXACT.readTree(Files.readString(settings)));
    }

    @Test
    void aDecisionThatCannotBeSavedLeavesTheFileAsItWasAndNoTemporaryFile() throws Exception {
        Files.createDirectories(settings.getParent());
        String broken = "{\"maxTurns\": \"many\"}\n";
        Files.writeString(settings, broken);

        assertThrows(IOException.class, () -> TrustedFolders.record(settings, project, true));

        assertEquals(broken, Files.readString(settings));
        assertEquals(List.of("settings.json"), fileNames(settings.getParent()));
    }

    @Test
    void aLinkedSettingsFileIsWrittenWhereItPointsAndStaysALink() throws Exception {
        Path dotfiles = Files.createDirectories(temp.resolve("dotfiles/dockhand"));
        Path kept = Files.writeString(dotfiles.resolve("settings.json"), "{\"maxTurns\": 40}\n");
        Files.createDirectories(settings.getParent());
        Files.createSymbolicLink(settings, kept);

        TrustedFolders.record(settings, project, true);

        assertEquals(kept, Files.readSymbolicLink(settings));
        assertEquals(
                json("{'maxTurns': 40, 'trustedFolders': {'" + project.toRealPath() + "': true}}"),
                EXACT.readTree(Files.readString(kept)));
        assertEquals(List.of("settings.json"), fileNames(dotfiles));
        assertEquals(List.of("settings.json"), fileNames(settings.getParent()));
    }

    @Test
    void aLinkToAMissingFileIsNamedAndNothingIsWritten() throws Exception {
        Files.createDirectories(settings.getParent());
        Path missing = temp.resolve("dotfiles/settings.json");
        Files.createSymbolicLink(settings, missing);

        IOException refused = assertThrows(IOException.class, () -> TrustedFolders.record(settings, project, true));

        assertEquals(
                settings + " is a link to " + missing + ", which does not exist; fix the link first",
                refused.getMessage());
        assertEquals(missing, Files.readSymbolicLink(settings));
        assertEquals(List.of("settings.json"), fileNames(settings.getParent()));
    }
}
