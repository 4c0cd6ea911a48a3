package dev.dockhand.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.Approver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.NonBlockingReader;

/**
 * Asks the user about one call, showing exactly what would happen: the command and its folder for a shell command,
 * a coloured diff for an edit, the address for a fetch. Only {@code y}, {@code a}, {@code n}, Esc and Ctrl-C do
 * anything; keys typed before the question appeared are thrown away, so a stray keystroke can never approve.
 */
final class ReplApprover implements Approver {
    /** Longest preview shown; the rest is counted, since a prompt taller than the screen cannot be read. */
    private static final int PREVIEW_LINES = 400;

    private static final int ESC = 27;
    private static final int CTRL_C = 3;
    private static final long ESCAPE_SEQUENCE_MILLIS = 40;

    private final Terminal terminal;
    private final LineReader reader;
    private final ReplScreen screen;
    private final TurnView view;
    private final Path workspace;

    ReplApprover(Terminal terminal, LineReader reader, ReplScreen screen, TurnView view, Path workspace) {
        this.terminal = terminal;
        this.reader = reader;
        this.screen = screen;
        this.view = view;
        this.workspace = workspace;
    }

    @Override
    public ApprovalDecision decide(ApprovalRequest request) {
        view.pause();
        try {
            return answer(request);
        } finally {
            view.resume();
        }
    }

    private List<AttributedString> question(ApprovalRequest request) {
        String tool = request.call().name();
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedStringBuilder()
                .style(TurnView.YELLOW.bold())
                .append("? Allow " + tool + "?")
                .toAttributedString());
        JsonNode arguments = arguments(request);
        if (arguments.hasNonNull("command")) {
            // A command of several lines is shown whole, each line on its own row.
            arguments
                    .get("command")
                    .asText()
                    .lines()
                    .forEach(line ->
                            lines.add(new AttributedString("  $ " + Rendering.printable(line), AttributedStyle.BOLD)));
            String folder = arguments.path("directory").asText("");
            lines.add(new AttributedString(
                    "  in "
                            + (folder.isEmpty()
                                    ? workspace
                                    : workspace.resolve(folder).normalize()),
                    TurnView.DIM));
        } else if (arguments.hasNonNull("url")) {
            lines.add(new AttributedString(
                    "  fetch " + Rendering.printable(arguments.get("url").asText()), AttributedStyle.BOLD));
        } else if (!request.summary().isEmpty()) {
            lines.add(new AttributedString("  " + Rendering.printable(request.summary()), AttributedStyle.BOLD));
        }
        request.preview().ifPresent(diff -> lines.addAll(diff(diff)));
        lines.add(new AttributedString(
                "  y allow once · a allow " + tool + " for this session · n deny (Esc)", TurnView.DIM));
        return lines;
    }

    private static JsonNode arguments(ApprovalRequest request) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(request.call().arguments());
            return parsed == null ? Json.object() : parsed;
        } catch (IOException e) {
            return Json.object();
        }
    }

    /** A unified diff, coloured line by line. */
    private static List<AttributedString> diff(String diff) {
        List<AttributedString> lines = new ArrayList<>();
        List<String> source = diff.lines().toList();
        for (String line : source.subList(0, Math.min(source.size(), PREVIEW_LINES))) {
            AttributedStyle style = AttributedStyle.DEFAULT;
            if (line.startsWith("+++") || line.startsWith("---")) {
                style = AttributedStyle.BOLD;
            } else if (line.startsWith("+")) {
                style = TurnView.GREEN;
            } else if (line.startsWith("-")) {
                style = TurnView.RED;
            } else if (line.startsWith("@@")) {
                style = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
            }
            lines.add(new AttributedString("  " + Rendering.printable(line), style));
        }
        if (source.size() > PREVIEW_LINES) {
            lines.add(new AttributedString(
                    "  … " + (source.size() - PREVIEW_LINES) + " more lines of diff", TurnView.DIM));
        }
        return lines;
    }

    /** Asks and reads the answer; keys typed before the question is on screen are thrown away first. */
    private ApprovalDecision answer(ApprovalRequest request) {
        String tool = request.call().name();
        Attributes saved = terminal.enterRawMode();
        int key;
        try {
            NonBlockingReader keys = terminal.reader();
            discardTypeahead(keys);
            screen.print(question(request));
            key = nextAnswerKey(keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            terminal.setAttributes(saved);
        }
        switch (key) {
            case 'y', 'Y' -> {
                screen.print(new AttributedString("  ✓ allowed once", TurnView.GREEN));
                return ApprovalDecision.allowOnce();
            }
            case 'a', 'A' -> {
                screen.print(
                        new AttributedString("  ✓ " + tool + " allowed for the rest of this session", TurnView.GREEN));
                return ApprovalDecision.allowForSession();
            }
            case 'n', 'N' -> {
                String reason = reason().strip();
                screen.print(
                        new AttributedString(reason.isEmpty() ? "  ✗ denied" : "  ✗ denied: " + reason, TurnView.RED));
                return ApprovalDecision.deniedByUser(reason);
            }
            default -> {
                screen.print(new AttributedString("  ✗ denied", TurnView.RED));
                return ApprovalDecision.deniedByUser("");
            }
        }
    }

    private static void discardTypeahead(NonBlockingReader keys) throws IOException {
        while (keys.read(1) >= 0) {
            // Typed before the question was on screen: not an answer to it.
        }
    }

    /** The first key that means something: y, a, n, or Esc / Ctrl-C / end of input as a denial. */
    private static int nextAnswerKey(NonBlockingReader keys) throws IOException {
        while (true) {
            int key = keys.read();
            if (key < 0 || key == CTRL_C) {
                return -1;
            }
            if (key == ESC) {
                // Arrow keys and the like also start with Esc: they are sequences, and ignored.
                if (keys.peek(ESCAPE_SEQUENCE_MILLIS) < 0) {
                    return -1;
                }
                while (keys.read(ESCAPE_SEQUENCE_MILLIS) >= 0) {
                    // The rest of the sequence.
                }
                continue;
            }
            if ("yYaAnN".indexOf(key) >= 0) {
                return key;
            }
        }
    }

    /** An optional reason for the model; Enter, Esc or Ctrl-C give none. */
    private String reason() {
        Object history = reader.getVariable(LineReader.DISABLE_HISTORY);
        reader.setVariable(LineReader.DISABLE_HISTORY, true);
        try {
            return reader.readLine("  reason for the model (Enter to skip): ");
        } catch (UserInterruptException | EndOfFileException e) {
            return "";
        } finally {
            reader.setVariable(LineReader.DISABLE_HISTORY, history == null ? Boolean.FALSE : history);
        }
    }
}
