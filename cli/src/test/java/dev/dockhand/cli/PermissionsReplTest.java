package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Always allow in this project" at the question, and /permissions, on the REPL's virtual terminal. */
public class PermissionsReplTest extends CliTest {
    private Path userSettings() {
        return temp.resolve("home/settings.json");
    }

    private void runs(String id, String command) {
        cli.model.enqueue(calls(toolCall(
                id, "run_shell_command", Json.object().put("command", command).toString())));
    }

    @Test
    void alwaysAllowShowsTheRuleSavesItForTheFolderAndStopsTheQuestion() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(
                userSettings(), "{\"maxTurns\": 40, \"permissions\": {\"deny\": [\"run_shell_command(rm *)\"]}}");
        runs("s1", "ls -a");
        cli.model.enqueue(answer("Listed."));
        runs("s2", "ls -l");
        cli.model.enqueue(answer("Listed again."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("list the files");
            repl.await("p always allow in this project: run_shell_command(ls *)");
            repl.type("p");
            repl.await("Listed.");
            repl.submit("and again");
            repl.await("Listed again.");

            assertEquals(1, repl.screen().split("\\? Allow run_shell_command\\?", -1).length - 1, repl.screen());
            JsonNode saved = Json.read(Files.readString(userSettings()));
            assertEquals(
                    Json.read("{\"maxTurns\": 40, \"permissions\": {\"deny\": [\"run_shell_command(rm *)\"],"
                            + " \"projects\": {" + Json.MAPPER.writeValueAsString(cli.workspace.toString())
                            + ": {\"allow\": [\"run_shell_command(ls *)\"]}}}}"),
                    saved);

            repl.submit("/permissions");
            repl.await("/permissions remove N removes one.");
            List<String> listed = repl.rowsFrom("Permission rules");
            assertEquals(
                    List.of(
                            "Permission rules (deny beats ask beats allow; then the approval mode, default)",
                            "   1  deny   run_shell_command(rm *)  user settings",
                            "   2  allow  run_shell_command(ls *)  user settings, this folder",
                            "  /permissions remove N removes one."),
                    listed.subList(0, 4));

            repl.submit("/permissions remove 2");
            repl.await("Removed: allow run_shell_command(ls *)");
        }
        assertEquals(
                Json.read("{\"maxTurns\": 40, \"permissions\": {\"deny\": [\"run_shell_command(rm *)\"],"
                        + " \"projects\": {" + Json.MAPPER.writeValueAsString(cli.workspace.toString())
                        + ": {\"allow\": []}}}}"),
                Json.read(Files.readString(userSettings())));
    }

    @Test
    void permissionsListsToolsAllowedForTheSessionAndRemovingOneAsksAgain() throws Exception {
        runs("s1", "ls -a");
        cli.model.enqueue(answer("Listed."));
        runs("s2", "ls -l");
        cli.model.enqueue(answer("Listed again."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("list the files");
            repl.await("? Allow run_shell_command?");
            repl.type("a");
            repl.await("Listed.");
            repl.submit("/permissions");
            repl.await("   1  allow  run_shell_command  session");
            repl.submit("/permissions remove 1");
            repl.await("Removed: allow run_shell_command (session); its calls ask again.");
            repl.submit("and again");
            repl.await("$ ls -l");
            repl.type("y");
            repl.await("Listed again.");
        }
    }
}
