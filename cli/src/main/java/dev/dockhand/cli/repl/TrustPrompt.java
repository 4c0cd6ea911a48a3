package dev.dockhand.cli.repl;

import dev.dockhand.cli.config.FolderTrust;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.config.edit.TrustedFolders;
import dev.dockhand.cli.environment.Rendering;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The REPL's question, before the session opens, about a folder whose own settings ask for more than an untrusted
 * folder may (a server, a key variable, an approval mode, a sandbox): {@code y} trusts it and {@code n} does not, both
 * remembered in the user's settings; Esc or Ctrl-C leave it undecided, untrusted for this session.
 */
public final class TrustPrompt {
    private TrustPrompt() {}

    /** The options to run with: the trusted ones when the user says yes, else {@code options} as they are. */
    static RunOptions ask(RunOptions options, Terminal terminal, ReplScreen screen) {
        if (options.trustQuestion().isEmpty()) {
            return options;
        }
        RunOptions.TrustQuestion question = options.trustQuestion().get();
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedStringBuilder()
                .style(TurnView.YELLOW.bold())
                .append("? Trust this folder's settings?")
                .toAttributedString());
        lines.add(new AttributedString("  " + question.folder() + "/.dockhand/settings.json sets:"));
        for (String setting : question.settings()) {
            lines.add(new AttributedString("    " + Rendering.printable(setting), AttributedStyle.BOLD));
        }
        lines.add(new AttributedString(
                "  A folder you cloned can use them to send your key elsewhere or to run", TurnView.DIM));
        lines.add(
                new AttributedString("  commands without asking; until you trust it, they are ignored.", TurnView.DIM));
        lines.add(new AttributedString(
                "  y trust this folder · n do not trust it (both remembered) · Esc decide later", TurnView.DIM));
        int key = ReplKeys.ask(terminal, "yYnN", () -> screen.print(lines));
        if (key == ReplKeys.NO_ANSWER) {
            screen.print("  not trusted for this session: " + question.ifNot(), TurnView.YELLOW);
            return options;
        }
        boolean trusted = key == 'y' || key == 'Y';
        try {
            TrustedFolders.record(question.userSettings(), question.folder(), trusted);
        } catch (IOException | RuntimeException e) {
            screen.print(
                    "  ⚠ the answer could not be saved in " + question.userSettings() + " (" + e.getMessage()
                            + "); it holds for this session only.",
                    TurnView.YELLOW);
        }
        if (!trusted) {
            screen.print("  ✗ not trusted: " + question.ifNot(), TurnView.RED);
            return options;
        }
        screen.print(new AttributedString("  ✓ trusted " + FolderTrust.realPath(question.folder()), TurnView.GREEN));
        return question.ifTrusted().get();
    }
}
