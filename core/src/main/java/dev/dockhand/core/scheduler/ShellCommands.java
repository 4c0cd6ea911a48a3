package dev.dockhand.core.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a bash command line into the simple commands it would run, for permission rules: the parts joined by
 * {@code &&}, {@code ||}, {@code ;}, {@code |}, {@code &} and newlines, and those inside {@code $(…)}, backticks,
 * {@code <(…)} and subshells. Quotes and escapes are honoured (an operator inside quotes joins nothing), and each
 * command's words come back with their quotes removed, so {@code 'rm' x} is {@code rm x}.
 *
 * <p>A hand-written tokenizer, not a bash parser: what it does not model (here-documents, arithmetic, loops,
 * conditionals, function definitions, an unclosed quote) makes the split {@linkplain Split#complete incomplete}. An
 * incomplete split never lets an allow rule answer for the command; deny and ask rules still look at every part it
 * found, which may be more than bash would run, never fewer of the parts it did understand.
 */
final class ShellCommands {
    /** Words that bash reads as syntax at the start of a command; stripped, so {@code then rm x} is {@code rm x}. */
    private static final Set<String> KEYWORDS =
            Set.of("then", "else", "elif", "fi", "do", "done", "esac", "{", "}", "!", "time");

    /** Keywords that open constructs the split does not model: a command holding one is not understood whole. */
    private static final Set<String> CONSTRUCTS =
            Set.of("if", "while", "until", "for", "case", "select", "function", "coproc", "[[", "]]");

    /** What a word holds in place of a substitution, whose commands are listed separately. */
    static final String SUBSTITUTION = "$(…)";

    private ShellCommands() {}

    /** One simple command: its words, unquoted. */
    record Command(List<String> words) {
        Command {
            words = List.copyOf(words);
        }

        /** The words joined by single spaces: what rules match. */
        String text() {
            return String.join(" ", words);
        }
    }

    /** The commands found, in order, and whether the whole line was understood. */
    record Split(List<Command> commands, boolean complete) {
        Split {
            commands = List.copyOf(commands);
        }
    }

    static Split split(String line) {
        Parser parser = new Parser(line);
        parser.list((char) 0);
        return new Split(parser.commands, parser.complete);
    }

    private static final class Parser {
        private final String text;
        private final List<Command> commands = new ArrayList<>();
        private int at;
        private boolean complete = true;

        Parser(String text) {
            this.text = text;
        }

        /** The command being read: its finished words and the word being built. */
        private final class Current {
            final List<String> words = new ArrayList<>();
            final StringBuilder word = new StringBuilder();
            boolean inWord;

            void append(char c) {
                word.append(c);
                inWord = true;
            }

            void append(String s) {
                word.append(s);
                inWord = true;
            }

            void endWord() {
                if (inWord) {
                    words.add(word.toString());
                }
                word.setLength(0);
                inWord = false;
            }

            boolean atCommandStart() {
                return words.isEmpty() && !inWord;
            }

            void endCommand() {
                endWord();
                int first = 0;
                while (first < words.size()) {
                    String word = words.get(first);
                    if (CONSTRUCTS.contains(word)) {
                        complete = false;
                    } else if (!KEYWORDS.contains(word)) {
                        break;
                    }
                    first++;
                }
                if (first < words.size()) {
                    commands.add(new Command(words.subList(first, words.size())));
                }
                words.clear();
            }
        }

        /**
         * Reads commands until the end of the text, or until {@code close} ({@code )} or a backtick), which is
         * consumed. The commands of a nested list are added before the command that holds it.
         */
        void list(char close) {
            Current current = new Current();
            while (at < text.length()) {
                char c = text.charAt(at);
                if (close != 0 && c == close) {
                    at++;
                    current.endCommand();
                    return;
                }
                switch (c) {
                    case ' ', '\t', '\r' -> {
                        current.endWord();
                        at++;
                    }
                    case '\n', ';' -> {
                        current.endCommand();
                        at++;
                    }
                    case '&' -> {
                        if (peek(1) == '>') {
                            redirection(current);
                        } else {
                            current.endCommand();
                            at += peek(1) == '&' ? 2 : 1;
                        }
                    }
                    case '|' -> {
                        current.endCommand();
                        at += peek(1) == '|' || peek(1) == '&' ? 2 : 1;
                    }
                    case '(' -> subshell(current);
                    case '`' -> {
                        at++;
                        list('`');
                        current.append(SUBSTITUTION);
                    }
                    case ')' -> {
                        // A ) that closes nothing.
                        complete = false;
                        current.endCommand();
                        at++;
                    }
                    case '\'' -> singleQuoted(current);
                    case '"' -> doubleQuoted(current);
                    case '\\' -> escaped(current);
                    case '$' -> dollar(current);
                    case '<', '>' -> {
                        if (peek(1) == '(') {
                            at += 2;
                            list(')');
                            current.append(SUBSTITUTION);
                        } else {
                            redirection(current);
                        }
                    }
                    case '#' -> comment(current);
                    default -> {
                        current.append(c);
                        at++;
                    }
                }
            }
            if (close != 0) {
                complete = false;
            }
            current.endCommand();
        }

        private void subshell(Current current) {
            if (!current.atCommandStart() || peek(1) == '(') {
                // A function definition, an array, an extglob or (( arithmetic )): not modelled.
                complete = false;
            }
            current.endCommand();
            at++;
            list(')');
        }

        /** A backslash outside quotes: the next character as itself, or nothing for a line continuation. */
        private void escaped(Current current) {
            if (at + 1 < text.length() && text.charAt(at + 1) != '\n') {
                current.append(text.charAt(at + 1));
            }
            at += 2;
        }

        /** A # that starts a word starts a comment to the end of the line; inside a word it is a character. */
        private void comment(Current current) {
            if (current.inWord) {
                current.append('#');
                at++;
                return;
            }
            while (at < text.length() && text.charAt(at) != '\n') {
                at++;
            }
        }

        private char peek(int ahead) {
            int index = at + ahead;
            return index < text.length() ? text.charAt(index) : 0;
        }

        /** A redirection operator, kept as a word of its own ({@code 2>&1} stays one word with its descriptor). */
        private void redirection(Current current) {
            boolean descriptor = current.inWord && current.word.chars().allMatch(Character::isDigit);
            if (!descriptor) {
                current.endWord();
            }
            if (text.startsWith("<<", at) && !text.startsWith("<<<", at)) {
                // A here-document: its body is data, and the split cannot tell where it ends.
                complete = false;
            }
            while (at < text.length() && "<>&|".indexOf(text.charAt(at)) >= 0) {
                current.append(text.charAt(at++));
            }
            if (at < text.length()
                    && Character.isDigit(text.charAt(at))
                    && current.word.toString().endsWith("&")) {
                while (at < text.length() && Character.isDigit(text.charAt(at))) {
                    current.append(text.charAt(at++));
                }
            }
            current.endWord();
        }

        private void singleQuoted(Current current) {
            int end = text.indexOf('\'', at + 1);
            if (end < 0) {
                complete = false;
                current.append(text.substring(at + 1));
                at = text.length();
                return;
            }
            current.append(text.substring(at + 1, end));
            at = end + 1;
        }

        private void doubleQuoted(Current current) {
            current.inWord = true;
            at++;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c == '"') {
                    at++;
                    return;
                }
                if (c == '\\' && at + 1 < text.length() && "$`\"\\\n".indexOf(text.charAt(at + 1)) >= 0) {
                    if (text.charAt(at + 1) != '\n') {
                        current.append(text.charAt(at + 1));
                    }
                    at += 2;
                } else if (c == '`') {
                    at++;
                    list('`');
                    current.append(SUBSTITUTION);
                } else if (c == '$' && (peek(1) == '(' || peek(1) == '{')) {
                    // Inside double quotes only $(…), $((…)) and ${…} expand; $' and $" are a plain $.
                    dollar(current);
                } else {
                    current.append(c);
                    at++;
                }
            }
            complete = false;
        }

        /**
         * {@code $'…'}: its escapes are decoded as bash does ({@code $'\x72m'} is {@code rm}), so a rule sees the
         * word bash runs. An escape the splitter does not know keeps its backslash, as bash's own do.
         */
        private void ansiC(Current current) {
            at += 2;
            current.inWord = true;
            while (at < text.length() && text.charAt(at) != '\'') {
                char c = text.charAt(at++);
                if (c != '\\' || at >= text.length()) {
                    current.append(c);
                    continue;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'a' -> current.append('\u0007');
                    case 'b' -> current.append('\b');
                    case 'e', 'E' -> current.append('\u001b');
                    case 'f' -> current.append('\f');
                    case 'n' -> current.append('\n');
                    case 'r' -> current.append('\r');
                    case 't' -> current.append('\t');
                    case 'v' -> current.append('\u000b');
                    case '\\', '\'', '"', '?' -> current.append(e);
                    case 'x' -> current.append(codePoint(16, 2));
                    case 'u' -> current.append(codePoint(16, 4));
                    case 'U' -> current.append(codePoint(16, 8));
                    case 'c' -> {
                        if (at < text.length()) {
                            current.append((char) (text.charAt(at++) & 0x1f));
                        }
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            at--;
                            current.append(codePoint(8, 3));
                        } else {
                            current.append("\\" + e);
                        }
                    }
                }
            }
            if (at >= text.length()) {
                complete = false;
            }
            at++;
        }

        /** Up to {@code most} digits in {@code radix} from {@code at}, as the character they name. */
        private String codePoint(int radix, int most) {
            int start = at;
            while (at < text.length() && at - start < most && Character.digit(text.charAt(at), radix) >= 0) {
                at++;
            }
            if (at == start) {
                // "\\x" with no digits is those two characters in bash.
                return radix == 8 ? "" : "\\" + text.charAt(start - 1);
            }
            int value = Integer.parseInt(text.substring(start, at), radix);
            if (radix == 8) {
                value &= 0xff;
            }
            return Character.isValidCodePoint(value) ? new String(Character.toChars(value)) : "";
        }

        /** {@code $(…)}, {@code $((…))}, {@code ${…}}, {@code $'…'}, {@code $"…"}, or a plain {@code $}. */
        private void dollar(Current current) {
            char next = peek(1);
            if (next == '(' && peek(2) == '(') {
                // Arithmetic can hold substitutions of its own; not modelled.
                complete = false;
                at += 2;
                list(')');
                current.append(SUBSTITUTION);
            } else if (next == '(') {
                at += 2;
                list(')');
                current.append(SUBSTITUTION);
            } else if (next == '{') {
                int depth = 0;
                int start = at;
                at++;
                while (at < text.length()) {
                    char c = text.charAt(at++);
                    if (c == '{') {
                        depth++;
                    } else if (c == '}' && --depth == 0) {
                        break;
                    } else if (c == '$' || c == '`') {
                        // A substitution inside a parameter expansion: not modelled.
                        complete = false;
                    }
                }
                if (depth != 0) {
                    complete = false;
                }
                current.append(text.substring(start, at));
            } else if (next == '\'') {
                ansiC(current);
            } else if (next == '"') {
                // $"…" is a translated string: to the splitter, a double-quoted one.
                at++;
                doubleQuoted(current);
            } else {
                current.append('$');
                at++;
            }
        }
    }
}
