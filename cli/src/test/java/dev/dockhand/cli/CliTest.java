package dev.dockhand.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of whole command-line runs: a fresh {@link CliHarness} (workspace, home and scripted model) under a temporary
 * folder for each test, closed after it. A subclass's own {@code @BeforeEach} runs after this one, so it can write
 * files into {@code cli.workspace} or change {@code cli.variables}.
 */
abstract class CliTest {
    @TempDir
    Path temp;

    CliHarness cli;

    @BeforeEach
    final void openHarness() throws Exception {
        cli = new CliHarness(temp);
    }

    @AfterEach
    final void closeHarness() {
        cli.close();
    }

    /** The conversation of a chat-completions request after the system prompt, as role: text (tool results as tool: content). */
    static List<String> messages(JsonNode request) {
        return StreamSupport.stream(request.get("messages").spliterator(), false)
                .skip(1)
                .map(message -> message.get("role").asText() + ": "
                        + (message.path("content").isTextual()
                                ? message.get("content").asText()
                                : ""))
                .toList();
    }
}
