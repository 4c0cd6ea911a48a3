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

    private String failure(String json) throws Exception {
        Path file = file(json);
        return assertThrows(SettingsException.class, () -> SettingsFiles.read(file))
                .getMessage();
    }

    @Test
    void readsEveryKey() throws Exception {
        Settings settings = SettingsFiles.read(
                file(
                        """
                {"provider":"anthropic","model":"claude","baseUrl":"http://127.0.0.1:9","apiKeyEnv":"WORK_KEY",
                 "approvalMode":"auto-edit","maxTurns":20,
                 "sandbox":{"kind":"docker","image":"java-sandbox:1","network":"none","memory":"4g","cpus":1.5,
                            "pids":256,"env":["JAVA_HOME"]},
                 "tools":{"allowed":["read_file"],"excluded":["web_fetch"]},
                 "truncation":{"maxChars":20000,"maxLines":500},
                 "compression":{"threshold":0.6,"contextWindow":32768},
                 "webFetch":{"allowedHosts":["intranet.example","10.0.0.0/8"]},
                 "protectedPaths":{"add":["deploy"],"allow":[".git/hooks"]},
                 "trustedFolders":{"/home/me/project":true,"/tmp/clone":false},
                 "pricing":{"my-model":{"input":1.5,"cachedInput":0.15,"cacheWrite":1.875,"output":6}},
                 "maxCost":2.5,
                 "reasoningEffort":"high"}
                """));

        assertEquals(
                new Settings(
                        "anthropic",
                        "claude",
                        "http://127.0.0.1:9",
                        "WORK_KEY",
                        "auto-edit",
                        20,
                        new Settings.Sandbox("docker", "java-sandbox:1", "none", "4g", 1.5, 256L, List.of("JAVA_HOME")),
                        new Settings.Tools(List.of("read_file"), List.of("web_fetch")),
                        new Settings.Truncation(20000, 500),
                        new Settings.Compression(0.6, 32768L),
                        new Settings.WebFetch(List.of("intranet.example", "10.0.0.0/8")),
                        new Settings.ProtectedPathsBlock(List.of("deploy"), List.of(".git/hooks")),
                        java.util.Map.of("/home/me/project", true, "/tmp/clone", false),
                        java.util.Map.of("my-model", new Settings.Price(1.5, 0.15, 1.875, 6.0)),
                        2.5,
                        "high"),
                settings);
    }

    @Test
    void readsTheBlocksOfCheckpointsPermissionsHooksAndRedaction() throws Exception {
        Settings settings = SettingsFiles.read(
                file(
                        """
                {"checkpoints": {"enabled": false, "maxFileSize": 1000},
                 "permissions": {"allow": ["run_shell_command(git status*)"], "ask": [], "deny": ["web_fetch"]},
                 "hooks": {"PreToolUse": [{"matcher": "edit|write_file",
                                           "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]}]},
                 "stopHookLimit": 3,
                 "redaction": {"enabled": true, "patterns": [{"id": "ticket", "regex": "TCK-[0-9]+"}],
                               "allowedValues": ["public"], "secretValues": ["hunter2"]}}
                """));

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
        assertEquals(Settings.EMPTY, SettingsFiles.read(temp.resolve("absent.json")));
        assertEquals(Settings.EMPTY, SettingsFiles.read(file("  \n")));
    }

    @Test
    void anUnknownKeyNamesTheFileTheKeyAndTheKnownOnes() throws Exception {
        assertEquals(
                temp.resolve("settings.json") + ": 'sandbox.memry' is not a setting; the settings at that level"
                        + " are cpus, env, image, kind, memory, network, pids.",
                failure("{\"sandbox\":{\"memry\":\"2g\"}}"));
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
