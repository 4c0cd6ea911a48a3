package dev.dockhand.cli.repl;

import dev.dockhand.cli.commands.CustomCommand;
import dev.dockhand.cli.commands.CustomCommands;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.scheduler.ApprovalMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jline.keymap.KeyMap;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EOFError;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.Reference;
import org.jline.reader.impl.DefaultParser;
import org.jline.reader.impl.history.DefaultHistory;
import org.jline.terminal.Terminal;

/**
 * The REPL's line editor: emacs keys, history kept in {@code ~/.dockhand/history}, several lines per message (a
 * trailing backslash, Alt-Enter or Ctrl-J; pasted newlines stay in the message), and Tab completion of slash commands
 * and {@code @path} references. {@code !} is not history expansion here: it starts a shell command. On a dumb terminal
 * Ctrl-J sends the message like Enter, which arrives as Ctrl-J there; a trailing backslash still starts a new line.
 */
public final class ReplInput {
    static final String NEWLINE_WIDGET = "dockhand-newline";
    static final String CYCLE_MODE_WIDGET = "dockhand-cycle-mode";
    static final String AGENTS_WIDGET = "dockhand-agents";

    private ReplInput() {}

    static LineReader build(Terminal terminal, Path history, Path workspace) {
        return build(terminal, history, workspace, CustomCommands.NONE);
    }

    /** The line editor, completing the custom commands {@code custom} after the built-in ones. */
    static LineReader build(Terminal terminal, Path history, Path workspace, CustomCommands custom) {
        try {
            // What the user typed (keys pasted into prompts too) is theirs alone: the file is made owner-only
            // before jline appends to it.
            if (!java.nio.file.Files.exists(history)) {
                dev.dockhand.core.PrivateFiles.createFolders(history.getParent());
                dev.dockhand.core.PrivateFiles.createEmpty(history);
            }
        } catch (java.io.IOException e) {
            // jline creates it then, or keeps the history in memory when it cannot.
        }
        LineReader reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("dockhand")
                .parser(new ContinuationParser())
                .completer(new ReplCompleter(workspace, custom))
                .history(new DefaultHistory())
                .variable(LineReader.HISTORY_FILE, history)
                .variable(LineReader.HISTORY_SIZE, 5_000)
                .variable(LineReader.HISTORY_FILE_SIZE, 5_000)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, "… ")
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
                .build();
        reader.getWidgets().put(NEWLINE_WIDGET, () -> {
            reader.getBuffer().write("\n");
            return true;
        });
        KeyMap<org.jline.reader.Binding> main = reader.getKeyMaps().get(LineReader.MAIN);
        if (!dumb(terminal)) {
            // Not on a dumb terminal: there Enter arrives as Ctrl-J (jline leaves the terminal's line discipline,
            // which turns Enter into it, as it is, and an editor's shell buffer ends each line with it), so Ctrl-J
            // sends the message, as jline's keys for dumb terminals have it.
            main.bind(new Reference(NEWLINE_WIDGET), KeyMap.ctrl('J'));
        }
        main.bind(new Reference(NEWLINE_WIDGET), KeyMap.alt('\r'));
        main.bind(new Reference(CYCLE_MODE_WIDGET), "\033[Z");
        // Ctrl-O shows or folds sub-agents' tool calls, as during a turn, rather than jline's accept-and-next-line.
        main.bind(new Reference(AGENTS_WIDGET), KeyMap.ctrl('O'));
        return reader;
    }

    /** Whether jline takes {@code terminal} for a dumb one, and reads it with its keys for dumb terminals. */
    private static boolean dumb(Terminal terminal) {
        return Terminal.TYPE_DUMB.equals(terminal.getType()) || Terminal.TYPE_DUMB_COLOR.equals(terminal.getType());
    }

    /** The message as typed: a backslash that continued a line is dropped, the newline kept. */
    static String message(String line) {
        return line.replace("\\\n", "\n");
    }

    /** Asks for another line when the line ends with a backslash; otherwise splits words for completion. */
    static final class ContinuationParser extends DefaultParser {
        ContinuationParser() {
            escapeChars(new char[0]);
            quoteChars(new char[0]);
        }

        @Override
        public ParsedLine parse(String line, int cursor, ParseContext context) {
            if (context == ParseContext.ACCEPT_LINE && line.endsWith("\\")) {
                throw new EOFError(-1, -1, "continued line", "\\");
            }
            return super.parse(line, cursor, context == ParseContext.ACCEPT_LINE ? ParseContext.COMPLETE : context);
        }
    }

    /** Completes {@code /commands} (built-in, then custom) at the start of the line and {@code @paths} anywhere. */
    static final class ReplCompleter implements Completer {
        private final Path workspace;
        private final CustomCommands custom;

        ReplCompleter(Path workspace, CustomCommands custom) {
            this.workspace = workspace;
            this.custom = custom;
        }

        @Override
        public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
            String word = line.word();
            if (line.wordIndex() == 0 && word.startsWith("/")) {
                for (SlashCommands.Command command : SlashCommands.ALL) {
                    candidates.add(new Candidate(
                            "/" + command.name(), "/" + command.name(), null, command.help(), null, null, true));
                }
                for (CustomCommand command : custom.all()) {
                    candidates.add(new Candidate(
                            "/" + command.name(),
                            "/" + command.name(),
                            null,
                            Rendering.printable(command.summary()),
                            null,
                            null,
                            true));
                }
            } else if (line.wordIndex() == 1 && line.words().get(0).equals("/approval-mode")) {
                for (var mode : ApprovalMode.values()) {
                    candidates.add(new Candidate(mode.cliName()));
                }
            } else if (word.startsWith("@")) {
                paths(word.substring(1), candidates);
            }
        }

        private void paths(String typed, List<Candidate> candidates) {
            int slash = typed.lastIndexOf('/');
            String folderPart = slash < 0 ? "" : typed.substring(0, slash + 1);
            Path folder = workspace.resolve(folderPart).normalize();
            if (!folder.startsWith(workspace) || !Files.isDirectory(folder)) {
                return;
            }
            try (Stream<Path> entries = Files.list(folder)) {
                entries.limit(2_000).forEach(entry -> {
                    boolean directory = Files.isDirectory(entry);
                    String value = "@" + folderPart + entry.getFileName() + (directory ? "/" : "");
                    candidates.add(new Candidate(value, value, null, null, null, null, !directory));
                });
            } catch (IOException unreadable) {
                // Nothing to offer from a folder we cannot list.
            }
        }
    }
}
