package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.config.Option;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.scheduler.ApprovalMode;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

public class CommandLineSpecTest {
    private static final String[] EVERY_OPTION = {
        "-p",
        "hi",
        "--provider",
        "anthropic",
        "--model",
        "m",
        "--base-url",
        "http://x",
        "--max-output-tokens",
        "7",
        "--retries",
        "1",
        "--retry-delay",
        "2s",
        "--connect-timeout",
        "3s",
        "--first-byte-timeout",
        "4s",
        "--idle-timeout",
        "5s",
        "--approval-mode",
        "auto-edit",
        "-y",
        "--max-turns",
        "9",
        "--sandbox",
        "none",
        "--sandbox-image",
        "img",
        "--sandbox-network",
        "host",
        "--sandbox-memory",
        "1g",
        "--sandbox-cpus",
        "1.5",
        "--sandbox-pids",
        "64",
        "--sandbox-env",
        "A",
        "--sandbox-env",
        "B",
        "--include-directory",
        "lib",
        "--max-output-chars",
        "500",
        "--max-output-lines",
        "50",
        "--compression-threshold",
        "0.5",
        "--context-window",
        "4096",
        "--output-format",
        "json",
        "--allowed-tools",
        "read_file,grep",
        "--excluded-tools",
        "web_fetch",
        "--max-wall-time",
        "1m",
        "--max-tool-calls",
        "3",
        "--resume",
        "--stacktrace"
    };

    private static DockhandCommand parse(String... args) {
        CliEnvironment environment =
                new CliEnvironment(Map.of(), Path.of("/work"), Path.of("/home"), InputStream.nullInputStream(), false);
        CommandLine commandLine = CommandLineSpec.create(environment);
        commandLine.parseArgs(args);
        DockhandCommand command = commandLine.getCommand();
        command.readOptions();
        return command;
    }

    private static List<Object> modelFields(DockhandCommand command) {
        return Arrays.asList(
                command.get(Option.PROMPT),
                command.get(Option.PROVIDER),
                command.get(Option.MODEL),
                command.get(Option.BASE_URL),
                command.get(Option.MAX_OUTPUT_TOKENS),
                command.get(Option.RETRIES),
                command.get(Option.RETRY_DELAY),
                command.get(Option.CONNECT_TIMEOUT),
                command.get(Option.FIRST_BYTE_TIMEOUT),
                command.get(Option.IDLE_TIMEOUT));
    }

    private static List<Object> sandboxFields(DockhandCommand command) {
        return Arrays.asList(
                command.get(Option.APPROVAL_MODE),
                command.get(Option.YOLO),
                command.get(Option.MAX_TURNS),
                command.get(Option.SANDBOX),
                command.get(Option.SANDBOX_IMAGE),
                command.get(Option.SANDBOX_NETWORK),
                command.get(Option.SANDBOX_MEMORY),
                command.get(Option.SANDBOX_CPUS),
                command.get(Option.SANDBOX_PIDS),
                command.get(Option.SANDBOX_ENV),
                command.get(Option.INCLUDE_DIRECTORY));
    }

    private static List<Object> outputFields(DockhandCommand command) {
        return Arrays.asList(
                command.get(Option.MAX_OUTPUT_CHARS),
                command.get(Option.MAX_OUTPUT_LINES),
                command.get(Option.COMPRESSION_THRESHOLD),
                command.get(Option.CONTEXT_WINDOW),
                command.get(Option.OUTPUT_FORMAT),
                command.get(Option.ALLOWED_TOOLS),
                command.get(Option.EXCLUDED_TOOLS),
                command.get(Option.MAX_WALL_TIME),
                command.get(Option.MAX_TOOL_CALLS),
                command.get(Option.RESUME),
                command.get(Option.STACKTRACE));
    }

    @Test
    void withoutOptionsEveryFieldHoldsItsDocumentedDefault() {
        DockhandCommand command = parse();
        assertEquals(Arrays.asList(null, null, null, null, 8192, 3, "1s", "15s", "5m", "2m"), modelFields(command));
        assertEquals(
                List.of(
                        ApprovalMode.DEFAULT,
                        false,
                        100,
                        "docker",
                        "dockhand-sandbox:latest",
                        "none",
                        "2g",
                        2.0,
                        512L,
                        List.of(),
                        List.of()),
                sandboxFields(command));
        assertEquals(
                Arrays.asList(30000, 1000, 0.7, null, "text", List.of(), List.of(), null, null, null, false),
                outputFields(command));
    }

    @Test
    void everyOptionReachesItsField() {
        DockhandCommand command = parse(EVERY_OPTION);
        assertEquals(List.of("hi", "anthropic", "m", "http://x", 7, 1, "2s", "3s", "4s", "5s"), modelFields(command));
        assertEquals(
                List.of(
                        ApprovalMode.AUTO_EDIT,
                        true,
                        9,
                        "none",
                        "img",
                        "host",
                        "1g",
                        1.5,
                        64L,
                        List.of("A", "B"),
                        List.of(Path.of("lib"))),
                sandboxFields(command));
        assertEquals(
                List.of(
                        500,
                        50,
                        0.5,
                        4096L,
                        "json",
                        List.of("read_file", "grep"),
                        List.of("web_fetch"),
                        "1m",
                        3,
                        "latest",
                        true),
                outputFields(command));
    }
}
