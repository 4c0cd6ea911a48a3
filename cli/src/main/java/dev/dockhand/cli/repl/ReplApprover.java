package dev.dockhand.cli.repl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.Json;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.scheduler.CallFacts;
import dev.dockhand.core.scheduler.PermissionRules;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Asks the user about one call, showing exactly what would happen: the command and its folder for a shell command,
 * a coloured diff for an edit, the address for a fetch. Only {@code y}, {@code a}, {@code n}, Esc and Ctrl-C do
 * anything; keys typed before the question appeared are thrown away, so a stray keystroke can never approve. {@code n}
 * denies this call, with an optional reason for the model, and the next call is asked. Esc and Ctrl-C (read as a key
 * while the question is up) stop the turn, as they do in gemini-cli and Claude Code: this call and every one after it
 * end cancelled, and the prompt comes back. A call that needs an explicit yes (a protected path) says why, and offers
 * no "for this session". {@code p} ("always allow in this project") saves allow rules for this folder in the user's
 * settings, shown in the question before they are saved (see {@link PermissionsCommand}).
 */
public final class ReplApprover implements Approver {
    /** Longest preview shown; the rest is counted, since a prompt taller than the screen cannot be read. */
    private static final int PREVIEW_LINES = 400;

    private final Terminal terminal;
    private final LineReader reader;
    private final ReplScreen screen;
    private final TurnView view;
    private final Path workspace;
    private volatile Remember remember;

    /** Saves "always allow in this project" rules and puts them in force; returns where they were saved. */
    @FunctionalInterface
    interface Remember {
        String alwaysAllow(List<String> rules) throws IOException;
    }

    ReplApprover(Terminal terminal, LineReader reader, ReplScreen screen, TurnView view, Path workspace) {
        this.terminal = terminal;
        this.reader = reader;
        this.screen = screen;
        this.view = view;
        this.workspace = workspace;
    }

    /** Offers "always allow in this project" from now on, saving through {@code remember}. */
    void remember(Remember remember) {
        this.remember = remember;
    }

    /** The rules {@code p} would save for this request; none for a call that needs an explicit yes. */
    private List<String> alwaysAllowRules(ApprovalRequest request) {
        if (remember == null || request.explicit().isPresent()) {
            return List.of();
        }
        return PermissionRules.alwaysAllowRules(CallFacts.of(request.call()));
    }

    @Override
    public ApprovalDecision decide(ApprovalRequest request) {
        // The keyboard is the question's alone (its keys, its reason line): the turn's Ctrl-O watcher waits.
        synchronized (ReplKeys.READING) {
            view.pause();
            try {
                return answer(request);
            } finally {
                view.resume();
            }
        }
    }

    private List<AttributedString> question(ApprovalRequest request) {
        String tool = request.call().name();
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedStringBuilder()
                .style(TurnView.YELLOW.bold())
                .append("? Allow " + tool + "?")
                .append(request.agent()
                        .map(agent -> " (asked by sub-agent " + Rendering.printable(agent) + ")")
                        .orElse(""))
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
                                    : Rendering.printable(workspace
                                            .resolve(folder)
                                            .normalize()
                                            .toString())),
                    TurnView.DIM));
        } else if (arguments.hasNonNull("url")) {
            lines.add(new AttributedString(
                    "  fetch " + Rendering.printable(arguments.get("url").asText()), AttributedStyle.BOLD));
        } else if (!request.summary().isEmpty()) {
            lines.add(new AttributedString("  " + Rendering.printable(request.summary()), AttributedStyle.BOLD));
        }
        request.preview().ifPresent(diff -> lines.addAll(diff(diff)));
        if (request.explicit().isPresent()) {
            lines.addAll(MarkdownLines.Wrap.words(
                    new AttributedString(
                            "  ! "
                                    + Rendering.printable(
                                            request.explicit().get().reason()),
                            TurnView.YELLOW.bold()),
                    screen.width() - 1,
                    "    "));
            lines.add(new AttributedString("  y allow this call · n deny · Esc stop the turn", TurnView.DIM));
        } else {
            List<String> always = alwaysAllowRules(request);
            lines.add(new AttributedString(
                    "  y allow once · a allow " + tool + " for this session"
                            + mcpServer(tool)
                                    .map(server -> " · s allow every tool of " + server)
                                    .orElse("")
                            + " · n deny · Esc stop the turn",
                    TurnView.DIM));
            if (!always.isEmpty()) {
                // The rules are shown before they can be saved: what "always" means is never a surprise.
                lines.add(new AttributedString(
                        "  p always allow in this project: " + Rendering.printable(String.join(", ", always)),
                        TurnView.DIM));
            }
        }
        return lines;
    }

    private static JsonNode arguments(ApprovalRequest request) {
        try {
            // As it will run: a redacted value that could change what the command does is shown (Redactor#shown).
            JsonNode parsed = Json.MAPPER.readTree(request.asShown().arguments());
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

    /**
     * "the MCP server x" for an MCP tool ({@code mcp__x__tool}), whose calls the user may allow all at once; empty
     * for Dockhand's own tools.
     */
    static Optional<String> mcpServer(String tool) {
        int end = tool.startsWith("mcp__") ? tool.indexOf("__", 5) : -1;
        return end > 5 ? Optional.of("the MCP server " + tool.substring(5, end)) : Optional.empty();
    }

    /** Asks and reads the answer. */
    private ApprovalDecision answer(ApprovalRequest request) {
        String tool = request.call().name();
        List<String> always = alwaysAllowRules(request);
        Optional<String> server = mcpServer(tool);
        String keys = request.explicit().isPresent()
                ? "yYnN"
                : "yYaA" + (server.isPresent() ? "sS" : "") + (always.isEmpty() ? "" : "pP") + "nN";
        int key = ReplKeys.ask(terminal, keys, () -> screen.print(question(request)));
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
            case 'p', 'P' -> {
                try {
                    String file = remember.alwaysAllow(always);
                    screen.print(new AttributedString(
                            "  ✓ always allowed in this project: " + String.join(", ", always) + " (saved in " + file
                                    + ")",
                            TurnView.GREEN));
                } catch (IOException | RuntimeException e) {
                    screen.print(new AttributedString(
                            "  ✓ allowed once; the rule could not be saved: " + e.getMessage(), TurnView.YELLOW));
                }
                return ApprovalDecision.allowOnce();
            }
            case 's', 'S' -> {
                screen.print(new AttributedString(
                        "  ✓ every tool of " + server.orElse("") + " allowed for the rest of this session",
                        TurnView.GREEN));
                return ApprovalDecision.allowGroupForSession();
            }
            case 'n', 'N' -> {
                String reason = reason().strip();
                screen.print(
                        new AttributedString(reason.isEmpty() ? "  ✗ denied" : "  ✗ denied: " + reason, TurnView.RED));
                return ApprovalDecision.deniedByUser(reason);
            }
            default -> {
                screen.print(new AttributedString("  ⊘ turn cancelled", TurnView.YELLOW));
                return ApprovalDecision.cancelTurn();
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
