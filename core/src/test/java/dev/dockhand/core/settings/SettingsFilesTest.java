package dev.dockhand.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsFilesTest {
    @TempDir
    Path temp;

    private Path file(String json) throws Exception {
        return Files.writeString(temp.resolve("settings.json"), json);
    }

    /** Option keys as a caller's table declares them, one of each kind of type. */
    private static final List<SettingsFiles.Key> OPTIONS = List.of(
            new SettingsFiles.Key("model", String.class),
            new SettingsFiles.Key("maxTurns", Integer.class),
            new SettingsFiles.Key("maxCost", Double.class),
            new SettingsFiles.Key("sandbox.kind", String.class),
            new SettingsFiles.Key("sandbox.pids", Long.class),
            new SettingsFiles.Key("sandbox.cpus", Double.class),
            new SettingsFiles.Key("sandbox.env", List.class, String.class),
            new SettingsFiles.Key("tools.allowed", List.class, String.class),
            new SettingsFiles.Key("pricing", Map.class, Settings.Price.class));

    private Settings read(String json) throws Exception {
        return SettingsFiles.read(file(json), OPTIONS);
    }

    private String failure(String json) throws Exception {
        Path file = file(json);
        return assertThrows(SettingsException.class, () -> SettingsFiles.read(file, OPTIONS))
                .getMessage();
    }

    @Test
    void readsTheDeclaredOptionKeysAsTheirTypesAndTheBlocksIntoTheRecord() throws Exception {
        Settings settings = read(
                """
                {"model":"claude","maxTurns":20,"maxCost":2,
                 "sandbox":{"kind":"docker","pids":256,"cpus":1.5,"env":["JAVA_HOME"]},
                 "tools":{"allowed":null},
                 "pricing":{"my-model":{"input":1.5,"cachedInput":0.15,"cacheWrite":1.875,"output":6}},
                 "protectedPaths":{"add":["deploy"],"allow":[".git/hooks"]},
                 "trustedFolders":{"/home/me/project":true,"/tmp/clone":false}}
                """);

        assertEquals(
                new Settings(
                        Map.of(
                                "model",
                                "claude",
                                "maxTurns",
                                20,
                                "maxCost",
                                2.0,
                                "sandbox.kind",
                                "docker",
                                "sandbox.pids",
                                256L,
                                "sandbox.cpus",
                                1.5,
                                "sandbox.env",
                                List.of("JAVA_HOME"),
                                "pricing",
                                Map.of("my-model", new Settings.Price(1.5, 0.15, 1.875, 6.0))),
                        new Settings.ProtectedPathsBlock(List.of("deploy"), List.of(".git/hooks")),
                        Map.of("/home/me/project", true, "/tmp/clone", false),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null),
                settings);
    }

    @Test
    void readsTheBlocksOfCheckpointsPermissionsHooksAndRedaction() throws Exception {
        Settings settings = read(
                """
                {"checkpoints": {"enabled": false, "maxFileSize": 1000},
                 "permissions": {"allow": ["run_shell_command(git status*)"], "ask": [], "deny": ["web_fetch"]},
                 "hooks": {"PreToolUse": [{"matcher": "edit|write_file",
                                           "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]}]},
                 "stopHookLimit": 3,
                 "redaction": {"enabled": true, "patterns": [{"id": "ticket", "regex": "TCK-[0-9]+"}],
                               "allowedValues": ["public"], "secretValues": ["hunter2"]}}
                """);

        assertEquals(
                List.of(
                        new Settings.Checkpoints(false, 1000L),
                        new Settings.Permissions(
                                List.of("run_shell_command(git status*)"), List.of(), List.of("web_fetch")),
                        Map.of(
                                "PreToolUse",
                                List.of(new Settings.HookMatcher(
                                        "edit|write_file",
                                        List.of(new Settings.HookCommand("command", "./check.sh", 5))))),
                        3,
                        new Settings.Redaction(
                                true,
                                List.of(new Settings.RedactionPattern("ticket", "TCK-[0-9]+")),
                                List.of("public"),
                                List.of("hunter2"))),
                List.of(
                        settings.checkpoints(),
                        settings.permissions(),
                        settings.hooks(),
                        settings.stopHookLimit(),
                        settings.redaction()));
    }

    @Test
    void aMissingOrEmptyFileIsNoSettings() throws Exception {
        assertEquals(Settings.EMPTY, SettingsFiles.read(temp.resolve("absent.json"), OPTIONS));
        assertEquals(Settings.EMPTY, read("  \n"));
    }

    @Test
    void anUnknownKeyNamesTheFileTheKeyAndTheKnownOnes() throws Exception {
        assertEquals(
                temp.resolve("settings.json") + ": 'sandbox.memry' is not a setting; the settings at that level"
                        + " are cpus, env, kind, pids.",
                failure("{\"sandbox\":{\"memry\":\"2g\"}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'modle' is not a setting; the settings at that level are"
                        + " checkpoints, hooks, maxCost, maxTurns, mcpServers, model, permissions, pricing,"
                        + " protectedPaths, redaction, sandbox, stopHookLimit, tools, trustedFolders.",
                failure("{\"modle\":\"x\"}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'options' is not a setting; the settings at that level are"
                        + " checkpoints, hooks, maxCost, maxTurns, mcpServers, model, permissions, pricing,"
                        + " protectedPaths, redaction, sandbox, stopHookLimit, tools, trustedFolders.",
                failure("{\"options\":{}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'pricing.m.inptu' is not a setting; the settings at that level"
                        + " are cacheWrite, cachedInput, input, output.",
                failure("{\"pricing\":{\"m\":{\"inptu\":1}}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'checkpoints.enabeld' is not a setting; the settings at that"
                        + " level are enabled, maxFileSize.",
                failure("{\"checkpoints\":{\"enabeld\":true}}"));
    }

    @Test
    void aWrongTypeSaysWhatWasExpected() throws Exception {
        assertEquals(
                temp.resolve("settings.json") + ": 'maxTurns' must be a whole number.",
                failure("{\"maxTurns\":\"ten\"}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'maxTurns' must be a whole number.", failure("{\"maxTurns\":1.5}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'tools.allowed' must be a list of strings.",
                failure("{\"tools\":{\"allowed\":\"read_file\"}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'sandbox' must be an object.", failure("{\"sandbox\":\"docker\"}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'pricing.m.input' must be a number.",
                failure("{\"pricing\":{\"m\":{\"input\":\"3\"}}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'sandbox.env[1]' must be a string.",
                failure("{\"sandbox\":{\"env\":[\"A\",[\"B\"]]}}"));
        assertEquals(
                temp.resolve("settings.json") + ": 'checkpoints.maxFileSize' must be a whole number.",
                failure("{\"checkpoints\":{\"maxFileSize\":\"10\"}}"));
    }

    @Test
    void aFileThatIsNoObjectSaysSo() throws Exception {
        assertEquals(
                temp.resolve("settings.json") + " must hold one JSON object, like {\"model\": \"gpt-4.1\"}.",
                failure("[\"model\"]"));
    }

    @Test
    void invalidJsonNamesTheLineAndColumn() throws Exception {
        String message = failure("{\n  \"model\": \"x\",,\n}");

        assertEquals(
                true,
                message.startsWith(temp.resolve("settings.json") + " is not valid JSON at line 2, column"),
                message);
    }
}
