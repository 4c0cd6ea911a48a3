package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /**
     * The lines of {@code dockhand config} (run with {@code args} before it) that start with one of {@code prefixes},
     * their padding squeezed to one space. Any {@code --sandbox-*} option keeps the harness from adding
     * {@code --sandbox none}.
     */
    List<String> configLines(List<String> prefixes, String... args) {
        List<String> command = new ArrayList<>(List.of(args));
        command.add("config");
        assertEquals(ExitCodes.OK, cli.run(command.toArray(String[]::new)), cli.err.toString());
        return cli.out
                .toString()
                .lines()
                .filter(line -> prefixes.stream().anyMatch(line::startsWith))
                .map(line -> line.replaceAll(" {2,}", " "))
                .toList();
    }
}
