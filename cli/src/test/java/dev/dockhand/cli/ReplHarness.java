package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.fail;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.repl.Repl;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jline.builtins.ScreenTerminal;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import picocli.CommandLine;

/**
 * The REPL on a virtual terminal: keys go in through a pipe, what it writes goes through a VT100 emulator, and tests
 * read the screen as a user would see it. The model is the {@link CliHarness}'s scripted server.
 */
public final class ReplHarness implements AutoCloseable {
    static final int WIDTH = 100;
    static final int HEIGHT = 40;

    private final PipedOutputStream keys = new PipedOutputStream();
    private final ScreenTerminal screen = new ScreenTerminal(WIDTH, HEIGHT);
    private final Terminal terminal;
    /** Whether the REPL draws its status line under the prompt: not on a dumb terminal. */
    private final boolean statusLine;

    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    /** Starts {@code dockhand ARGS} (with {@code --sandbox none} unless a sandbox is named) on the virtual terminal. */
    ReplHarness(CliHarness cli, String... given) throws IOException {
        this("xterm-256color", cli, given);
    }

    /** The same on a terminal of {@code type}, like {@code dumb}. */
    ReplHarness(String type, CliHarness cli, String... given) throws IOException {
        List<String> args = new ArrayList<>();
        if (Arrays.stream(given).noneMatch(arg -> arg.startsWith("--sandbox"))) {
            args.addAll(List.of("--sandbox", "none"));
        }
        args.addAll(List.of(given));
        CliEnvironment environment = new CliEnvironment(
                Map.copyOf(cli.variables),
                cli.workspace,
                cli.temp.resolve("home"),
                InputStream.nullInputStream(),
                true);
        CommandLine commandLine = CommandLineSpec.create(environment);
        commandLine.parseArgs(args.toArray(String[]::new));
        DockhandCommand command = commandLine.getCommand();
        command.configure();
        RunOptions options = RunOptions.from(command, environment);

        // ExternalTerminal, not TerminalBuilder: with the JNI provider present the builder would open a real pty, and
        // a Ctrl-C typed into a pty we do not lead never becomes a signal for us.
        terminal = new ExternalTerminal(
                "test", type, new PipedInputStream(keys, 1 << 16), new ScreenSink(screen), StandardCharsets.UTF_8);
        terminal.setSize(new Size(WIDTH, HEIGHT));
        statusLine = !type.equals(Terminal.TYPE_DUMB) && !type.equals(Terminal.TYPE_DUMB_COLOR);
        Thread repl = new Thread(
                () -> {
                    try {
                        exit.complete(new Repl(options, environment, terminal, System::nanoTime).run());
                    } catch (Throwable e) {
                        exit.completeExceptionally(e);
                    }
                },
                "repl");
        repl.setDaemon(true);
        repl.start();
    }

    /**
     * Decodes what the REPL writes straight into the emulator. Not a pipe: a pipe breaks when a thread that wrote to
     * it ends, and the REPL writes from short-lived threads (a command's output pumps).
     */
    private static final class ScreenSink extends OutputStream {
        private final ScreenTerminal screen;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        private final ByteBuffer bytes = ByteBuffer.allocate(1 << 14);
        private final CharBuffer chars = CharBuffer.allocate(1 << 14);

        ScreenSink(ScreenTerminal screen) {
            this.screen = screen;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] data, int offset, int length) {
            int done = 0;
            while (done < length) {
                int chunk = Math.min(bytes.remaining(), length - done);
                bytes.put(data, offset + done, chunk);
                done += chunk;
                bytes.flip();
                decoder.decode(bytes, chars, false);
                bytes.compact();
                chars.flip();
                screen.write(chars.toString());
                chars.clear();
            }
        }
    }

    /** Types {@code text} as keys; {@code \r} is Enter. */
    ReplHarness type(String text) {
        try {
            keys.write(text.getBytes(StandardCharsets.UTF_8));
            keys.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Waits until the screen shows {@code text}, failing with the screen after ten seconds. */
    String await(String text) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String shown = screen();
            if (shown.contains(text)) {
                return shown;
            }
            sleep();
        }
        fail("the screen never showed '" + text + "':\n" + screen());
        return "";
    }

    /**
     * Types {@code text} and Enter once the REPL waits at an empty prompt, so that they are the prompt's input and not
     * keys typed ahead (which the REPL keeps for the prompt, but a test that means the prompt should not rely on).
     */
    ReplHarness submit(String text) {
        return awaitPrompt().type(text + "\r");
    }

    /** Waits until the REPL waits at an empty prompt. */
    ReplHarness awaitPrompt() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!atEmptyPrompt()) {
            if (System.nanoTime() > deadline) {
                fail("the REPL never came back to an empty prompt:\n" + screen());
            }
            sleep();
        }
        return this;
    }

    /**
     * Whether the last row (above the status line, if any) is the prompt with nothing typed; on a dumb terminal, which
     * shows nothing of what is typed, whether it is the prompt.
     */
    private boolean atEmptyPrompt() {
        List<String> rows = new ArrayList<>(screen().lines().toList());
        if (rows.isEmpty()) {
            return false;
        }
        if (statusLine) {
            rows.remove(rows.size() - 1);
        }
        while (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {
            rows.remove(rows.size() - 1);
        }
        return !rows.isEmpty() && rows.get(rows.size() - 1).equals("›");
    }

    /** The screen's rows, trailing spaces removed, blank rows at the bottom dropped. */
    String screen() {
        List<String> rows = new ArrayList<>(
                screen.toString().lines().map(String::stripTrailing).toList());
        while (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {
            rows.remove(rows.size() - 1);
        }
        return String.join("\n", rows);
    }

    /** The rows from the last one holding {@code marker} down, for asserting on what one step printed. */
    List<String> rowsFrom(String marker) {
        List<String> rows = screen().lines().toList();
        for (int i = rows.size() - 1; i >= 0; i--) {
            if (rows.get(i).contains(marker)) {
                return rows.subList(i, rows.size());
            }
        }
        fail("no row holds '" + marker + "':\n" + screen());
        return List.of();
    }

    /** Waits for the REPL to end and returns its exit code. */
    int exitCode() {
        try {
            return exit.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the REPL did not end:\n" + screen(), e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        if (!exit.isDone()) {
            type("\u0004");
            try {
                exit.get(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // Closing the terminal below ends it anyway.
            }
        }
        terminal.close();
        keys.close();
    }
}
