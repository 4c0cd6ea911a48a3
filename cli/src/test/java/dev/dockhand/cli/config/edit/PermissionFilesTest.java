package dev.dockhand.cli.config.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.dockhand.core.scheduler.PermissionRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PermissionFilesTest {
    /** Reads numbers as written, so 1.50 and 1.5 are told apart. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    @TempDir
    Path temp;

    private JsonNode json(String text) throws Exception {
        return EXACT.readTree(text.replace('\'', '"'));
    }

    private String folderKey() throws Exception {
        return temp.resolve("project").toRealPath().toString();
    }

    @Test
    void alwaysAllowAddsToTheFoldersBlockAndKeepsEveryOtherValueAsItWas() throws Exception {
        Files.createDirectories(temp.resolve("project"));
        Path settings = temp.resolve("home/settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(
                settings,
                "{\"model\": \"gpt-5\", \"maxCost\": 1.50, \"pricing\": {\"m\": {\"input\": 0.10}},\n"
                        + " \"trustedFolders\": {\"/elsewhere\": true},\n"
                        + " \"permissions\": {\"deny\": [\"run_shell_command(rm *)\"],"
                        + " \"projects\": {\"/other\": {\"allow\": [\"edit\"]}}}}");

        PermissionFiles.allowInFolder(
                settings, temp.resolve("project"), List.of("run_shell_command(git status *)", "edit"));
        PermissionFiles.allowInFolder(settings, temp.resolve("project/../project"), List.of("edit"));

        assertEquals(
                json("{'model': 'gpt-5', 'maxCost': 1.50, 'pricing': {'m': {'input': 0.10}},"
                        + " 'trustedFolders': {'/elsewhere': true},"
                        + " 'permissions': {'deny': ['run_shell_command(rm *)'],"
                        + " 'projects': {'/other': {'allow': ['edit']}, '" + folderKey() + "':"
                        + " {'allow': ['run_shell_command(git status *)', 'edit']}}}}"),
                EXACT.readTree(Files.readString(settings)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)));
        assertEquals(List.of("settings.json"), fileNames(settings.getParent()));
    }

    private static List<String> fileNames(Path folder) throws Exception {
        try (var files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void alwaysAllowCreatesTheUsersFileWhenThereIsNone() throws Exception {
        Files.createDirectories(temp.resolve("project"));
        Path settings = temp.resolve("home/settings.json");

        PermissionFiles.allowInFolder(settings, temp.resolve("project"), List.of("web_fetch(domain:docs.oracle.com)"));

        assertEquals(
                json("{'permissions': {'projects': {'" + folderKey() + "': {'allow':"
                        + " ['web_fetch(domain:docs.oracle.com)']}}}}"),
                EXACT.readTree(Files.readString(settings)));
    }

    @Test
    void removeTakesOneRuleOutOfTheTopOrTheFoldersBlock() throws Exception {
        Files.createDirectories(temp.resolve("project"));
        Path settings = temp.resolve("settings.json");
        Files.writeString(
                settings,
                json("{'permissions': {'deny': ['run_shell_command( rm * )', 'read_file']," + " 'projects': {'"
                                + folderKey() + "': {'allow': ['edit', 'glob']}}}}")
                        .toString());

        boolean top = PermissionFiles.remove(
                settings, true, Optional.empty(), PermissionRule.Decision.DENY, "run_shell_command(rm *)");
        boolean block = PermissionFiles.remove(
                settings, true, Optional.of(temp.resolve("project")), PermissionRule.Decision.ALLOW, "edit");
        boolean absent =
                PermissionFiles.remove(settings, true, Optional.empty(), PermissionRule.Decision.ASK, "read_file");

        assertEquals(List.of(true, true, false), List.of(top, block, absent));
        assertEquals(
                json("{'permissions': {'deny': ['read_file'], 'projects': {'" + folderKey() + "': {'allow':"
                        + " ['glob']}}}}"),
                EXACT.readTree(Files.readString(settings)));
    }

    @Test
    void aProjectsSettingsFileThatLinksToTheUsersIsNotWrittenAndTheUsersFileStaysAsItWas() throws Exception {
        Path users = temp.resolve("home/settings.json");
        Files.createDirectories(users.getParent());
        String secrets = "{\"redaction\": {\"secretValues\": [\"hunter2\"]},"
                + " \"permissions\": {\"allow\": [\"read_file\"]}}\n";
        Files.writeString(users, secrets);
        Path project =
                Files.createDirectories(temp.resolve("project/.dockhand")).resolve("settings.json");
        Files.createSymbolicLink(project, users);

        IOException refused = assertThrows(
                IOException.class,
                () -> PermissionFiles.remove(
                        project, false, Optional.empty(), PermissionRule.Decision.ALLOW, "read_file"));

        assertEquals(
                project + " is a link to " + users + "; a project's settings are changed only in a file of their own",
                refused.getMessage());
        assertEquals(users, Files.readSymbolicLink(project));
        assertEquals(secrets, Files.readString(users));
    }

    @Test
    void aProjectsSettingsFolderThatLinksToTheUsersIsNotWrittenAndTheUsersFileStaysAsItWas() throws Exception {
        Path users = temp.resolve("home/.dockhand/settings.json");
        Files.createDirectories(users.getParent());
        String secrets = "{\"redaction\": {\"secretValues\": [\"hunter2\"]},"
                + " \"permissions\": {\"allow\": [\"read_file\"]}}\n";
        Files.writeString(users, secrets);
        // A repository cloned at ~/src/proj that ships .dockhand -> ../../.dockhand.
        Path project = Files.createDirectories(temp.resolve("home/src/proj"));
        Path folder = Files.createSymbolicLink(project.resolve(".dockhand"), Path.of("../../.dockhand"));
        Path file = folder.resolve("settings.json");

        IOException refused = assertThrows(
                IOException.class,
                () -> PermissionFiles.remove(
                        file, false, Optional.empty(), PermissionRule.Decision.ALLOW, "read_file"));

        assertEquals(
                file + " is reached through " + folder + ", a link to ../../.dockhand; a project's settings are changed"
                        + " only in a file of their own",
                refused.getMessage());
        assertEquals(List.of(secrets, List.of("settings.json")), List.of(Files.readString(users), names(users)));
    }

    private static List<String> names(Path file) throws IOException {
        try (var listed = Files.list(file.getParent())) {
            return listed.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
