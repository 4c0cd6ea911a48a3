package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REPL on a real pseudo-terminal, made by util-linux's {@code script}: keys reach Dockhand through the kernel's
 * line discipline, where Ctrl-C is a signal unless the program turns that off. jline's virtual terminals in the other
 * REPL tests emulate this; here nothing is emulated.
 */
public class ReplPtyTest {
    private static final Path SCRIPT = Path.of("/usr/bin/script");

    @TempDir
    Path temp;

    /** What the REPL printed so far, as it arrives; read by the waits. */
    private final ByteArrayOutputStream screen = new ByteArrayOutputStream();

    // gemini-cli coreToolScheduler.test.ts: "should cancel all tools in a batch when one is cancelled via
    // confirmation", on a real terminal, where Ctrl-C must be read as a key and not kill the process.
    @Test
    void ctrlCAtTheFirstOfThreeQuestionsCancelsTheTurnNotTheProcessOnARealTerminal() throws Exception {
        assumeTrue(Files.isExecutable(SCRIPT), "util-linux's script is not installed; no pseudo-terminal to test on");
        Path workspace = Files.createDirectories(temp.resolve("project"));
        try (ScriptedModel model = new ScriptedModel()) {
            model.enqueue(calls(
                    toolCall("1", "write_file", "{\"path\":\"one.txt\",\"content\":\"1\"}"),
                    toolCall("2", "write_file", "{\"path\":\"two.txt\",\"content\":\"2\"}"),
                    toolCall("3", "write_file", "{\"path\":\"three.txt\",\"content\":\"3\"}")));
            Process repl = start(workspace, model.baseUrl());
            try (OutputStream keys = repl.getOutputStream()) {
                await(repl, "› ");
                keys.write("write three files\r".getBytes(StandardCharsets.UTF_8));
                keys.flush();
                await(repl, "one.txt", "? Allow write_file?");
                keys.write(3); // Ctrl-C
                keys.flush();
                await(repl, "turn cancelled");
                awaitPrompts(repl, 2);
                keys.write(4); // Ctrl-D on the empty prompt: leave
                keys.flush();
                assertTrue(repl.waitFor(120, TimeUnit.SECONDS), printed());
            } finally {
                repl.destroyForcibly();
            }
        }
        assertEquals(1, printed().split("\\? Allow write_file\\?", -1).length - 1, printed());
        assertFalse(Files.exists(workspace.resolve("one.txt")));
        assertFalse(Files.exists(workspace.resolve("two.txt")));
        assertFalse(Files.exists(workspace.resolve("three.txt")));
    }

    // A dumb terminal, as in an editor's shell buffer: jline leaves the line discipline as it is, so Enter arrives as
    // Ctrl-J, and keys typed before the prompt wait in the terminal.
    @Test
    void keysTypedBeforeThePromptOfADumbTerminalAreSentByTheirEnter() throws Exception {
        assumeTrue(Files.isExecutable(SCRIPT), "util-linux's script is not installed; no pseudo-terminal to test on");
        Path workspace = Files.createDirectories(temp.resolve("project"));
        try (ScriptedModel model = new ScriptedModel()) {
            model.enqueue(answer("Hi there."));
            Process repl = start(workspace, model.baseUrl(), "dumb");
            try (OutputStream keys = repl.getOutputStream()) {
                // Typed at once: long before the REPL reads, whatever its start-up takes.
                keys.write("hello\r".getBytes(StandardCharsets.UTF_8));
                keys.flush();
                await(repl, "Hi there.");
                awaitPrompts(repl, 2);
                keys.write(4); // Ctrl-D on the empty prompt: leave
                keys.flush();
                assertTrue(repl.waitFor(120, TimeUnit.SECONDS), printed());
            } finally {
                repl.destroyForcibly();
            }
            assertEquals(0, repl.exitValue(), printed());
            JsonNode messages = model.takeRequest().get("messages");
            assertEquals(2, messages.size(), messages.toString());
            assertEquals("hello", messages.get(1).get("content").asText());
        }
    }

    /** {@code dockhand} with no prompt, in a pseudo-terminal of 100 by 40 that {@code script} makes. */
    private Process start(Path workspace, String baseUrl) throws IOException {
        return start(workspace, baseUrl, "xterm-256color");
    }

    /** The same on a terminal whose {@code TERM} is {@code term}. */
    private Process start(Path workspace, String baseUrl, String term) throws IOException {
        List<String> dockhand = ChildProcess.dockhand(
                List.of(), List.of("--sandbox", "none", "--model", "m", "--base-url", baseUrl, "--retries", "0"));
        String command = "stty cols 100 rows 40 && exec "
                + dockhand.stream().map(ReplPtyTest::quoted).collect(Collectors.joining(" "));
        ProcessBuilder builder = new ProcessBuilder(List.of(SCRIPT.toString(), "-qfec", command, "/dev/null"))
                .directory(workspace.toFile())
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.remove("JAVA_TOOL_OPTIONS");
        environment.putAll(ChildProcess.variablesFor(temp));
        environment.put("TERM", term);
        Process process = builder.start();
        Thread reader = new Thread(() -> copy(process.getInputStream()), "pty-reader");
        reader.setDaemon(true);
        reader.start();
        return process;
    }

    private void copy(InputStream from) {
        byte[] buffer = new byte[4096];
        try {
            int read;
            while ((read = from.read(buffer)) >= 0) {
                synchronized (screen) {
                    screen.write(buffer, 0, read);
                }
            }
        } catch (IOException closed) {
            // The process ended.
        }
    }

    private String printed() {
        synchronized (screen) {
            return screen.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits until every text has been printed, in any order; fails after 30 s or when the process ends first. */
    private void await(Process repl, String... texts) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String shown = printed();
            List<String> missing = new ArrayList<>();
            for (String text : texts) {
                if (!shown.contains(text)) {
                    missing.add(text);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            if (!repl.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the terminal never showed " + List.of(texts) + ":\n" + printed());
    }

    /** Waits until the prompt has been drawn {@code count} times, so a key typed next goes to a waiting prompt. */
    private void awaitPrompts(Process repl, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && repl.isAlive()) {
            if (printed().split("› ", -1).length - 1 >= count) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the prompt was not drawn " + count + " times:\n" + printed());
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
