package dev.dockhand.cli;

import dev.dockhand.core.Json;
import dev.dockhand.core.testing.JsonSchemaCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The published contract of the headless outputs, {@code docs/headless-events.schema.json}, applied to what a test
 * run printed: an event that drifts from the documented schema fails the test that printed it.
 */
public final class HeadlessSchema {
    private static final JsonSchemaCheck SCHEMA = load();

    private HeadlessSchema() {}

    private static JsonSchemaCheck load() {
        // Surefire runs in the module's folder; the schema is the one users read, in the repository's docs/.
        Path file = Path.of("").toAbsolutePath().getParent().resolve("docs/headless-events.schema.json");
        try {
            return new JsonSchemaCheck(Json.MAPPER.readTree(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** What is wrong with each line of {@code stdout}, one entry per problem; empty when every line is valid. */
    static List<String> problems(String stdout) {
        return SCHEMA.problems(stdout);
    }

    /** Whether the arguments ask for json or stream-json output. */
    static boolean machineOutput(List<String> args) {
        if (args.contains("checkpoints")) {
            // The checkpoints subcommand's JSON is a list of its own (docs/checkpoints.md), not a run's events.
            return false;
        }
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = arg.startsWith("--output-format=")
                    ? arg.substring("--output-format=".length())
                    : arg.equals("--output-format") && i + 1 < args.size() ? args.get(i + 1) : null;
            if (value != null && (value.equals("json") || value.equals("stream-json"))) {
                return true;
            }
        }
        return false;
    }
}
