package dev.dockhand.core.glob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The rules of one {@code .gitignore} (or {@code .git/info/exclude}), read and matched as git does (gitignore(5)),
 * each in time proportional to the path's length times the rule's ({@link Wildcard}), so no file of a repository can
 * make a question about one path take long.
 *
 * <p>Reading: lines end at {@code \n} (a {@code \r} before it is dropped); a blank line or one starting with {@code #}
 * is no rule; trailing spaces are dropped unless escaped with a backslash; a leading {@code !} negates the rule (a
 * backslash before a leading {@code !} or {@code #} makes it plain). A trailing {@code /} makes the rule match folders
 * only. A rule with no other {@code /} matches the last name of a path, at any depth; one with a {@code /} at its start
 * or in its middle matches the whole path relative to the file's folder. {@link GitPattern} reads the wildcards.
 *
 * <p>Limits, so that no file makes reading it take long: only the first {@link #MAX_BYTES} bytes of a file are read
 * (the line they cut is dropped), and a line longer than {@link #MAX_RULE_LENGTH} characters is no rule; it never
 * matches. git reads whole files (up to 100 MiB since git 2.45.3) and lines of any length.
 *
 * <p>Matching: the last rule that matches a path decides ({@link #verdict}). A file in a folder that is ignored cannot
 * be re-included: callers do not look into ignored folders, or ask about each folder of a path first.
 */
public final class IgnoreFile {
    /** The most of a file that is read: the first 1 MiB. */
    public static final int MAX_BYTES = 1 << 20;

    /** The longest line read as a rule, as {@link Glob#MAX_LENGTH} for a glob. */
    public static final int MAX_RULE_LENGTH = Glob.MAX_LENGTH;

    /** A file with no rule. */
    public static final IgnoreFile EMPTY = new IgnoreFile(List.of());

    /** What a file's rules say of a path. */
    public enum Verdict {
        /** The last rule that matches ignores it. */
        IGNORED,
        /** The last rule that matches is a negated one ({@code !rule}): not ignored, whatever files above say. */
        NOT_IGNORED,
        /** No rule matches: the files above it decide. */
        UNDECIDED
    }

    /**
     * One line's rule.
     *
     * @param folderOnly whether it ended with {@code /}: it matches folders only
     * @param nameOnly whether it holds no other {@code /}: it matches a path's last name, at any depth
     */
    private record Rule(Wildcard pattern, boolean negated, boolean folderOnly, boolean nameOnly) {}

    private final List<Rule> rules;

    private IgnoreFile(List<Rule> rules) {
        this.rules = rules;
    }

    /** Reads a file from {@code in}, at most {@link #MAX_BYTES} of it ({@link #parse}). */
    public static IgnoreFile read(InputStream in) throws IOException {
        return parse(in.readNBytes(MAX_BYTES + 1));
    }

    /**
     * Reads a file's bytes (UTF-8; a byte order mark at its start is skipped, as git skips it), the first
     * {@link #MAX_BYTES} of them: when there are more, the line they cut is dropped.
     */
    public static IgnoreFile parse(byte[] content) {
        int length = content.length;
        if (length > MAX_BYTES) {
            length = MAX_BYTES;
            while (length > 0 && content[length - 1] != '\n') {
                length--;
            }
        }
        String text = new String(content, 0, length, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        List<Rule> rules = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            if (end > start && text.charAt(start) != '#') {
                int stop = text.charAt(end - 1) == '\r' ? end - 1 : end;
                String line = withoutTrailingSpaces(text.substring(start, stop));
                if (!line.isEmpty() && line.length() <= MAX_RULE_LENGTH) {
                    rules.add(rule(line));
                }
            }
            start = end + 1;
        }
        return rules.isEmpty() ? EMPTY : new IgnoreFile(List.copyOf(rules));
    }

    /** {@code line} without the spaces that end it, but for one a backslash escapes (and those before it). */
    private static String withoutTrailingSpaces(String line) {
        int lastSpace = -1;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ' ') {
                if (lastSpace < 0) {
                    lastSpace = i;
                }
                continue;
            }
            if (c == '\\') {
                i++;
                if (i == line.length()) {
                    return line;
                }
            }
            lastSpace = -1;
        }
        return lastSpace < 0 ? line : line.substring(0, lastSpace);
    }

    private static Rule rule(String line) {
        String pattern = line;
        boolean negated = pattern.startsWith("!");
        if (negated) {
            pattern = pattern.substring(1);
        }
        boolean folderOnly = pattern.endsWith("/");
        if (folderOnly) {
            pattern = pattern.substring(0, pattern.length() - 1);
        }
        boolean nameOnly = pattern.indexOf('/') < 0;
        if (!nameOnly && pattern.startsWith("/")) {
            pattern = pattern.substring(1);
        }
        return new Rule(GitPattern.compile(pattern), negated, folderOnly, nameOnly);
    }

    /**
     * Whether git ignores {@code path} itself (relative to the repository's top, written with {@code /}; its folders
     * not considered): the {@code .gitignore} nearest to it with a rule for it decides, each reading the path from its
     * own folder, else {@code exclude} ({@code .git/info/exclude}). {@code inFolder} gives a folder's
     * {@code .gitignore} ({@code ""} for the top), {@link #EMPTY} where there is none.
     */
    public static boolean ignored(
            String path, boolean folder, Function<String, IgnoreFile> inFolder, IgnoreFile exclude) {
        int slash = path.lastIndexOf('/');
        while (true) {
            Verdict verdict =
                    inFolder.apply(slash < 0 ? "" : path.substring(0, slash)).verdict(path, slash + 1, folder);
            if (verdict != Verdict.UNDECIDED) {
                return verdict == Verdict.IGNORED;
            }
            if (slash < 0) {
                return exclude.verdict(path, folder) == Verdict.IGNORED;
            }
            slash = path.lastIndexOf('/', slash - 1);
        }
    }

    /** Whether the file holds no rule (only blank lines and comments, or nothing). */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** What the rules say of {@code path}, relative to the file's folder and written with {@code /}. */
    public Verdict verdict(String path, boolean folder) {
        return verdict(path, 0, folder);
    }

    /**
     * What the rules say of the part of {@code path} from {@code from} on (relative to the file's folder and written
     * with {@code /}), without cutting it out.
     */
    public Verdict verdict(String path, int from, boolean folder) {
        int name = Math.max(from, path.lastIndexOf('/') + 1);
        for (int i = rules.size() - 1; i >= 0; i--) {
            Rule rule = rules.get(i);
            if (rule.folderOnly() && !folder) {
                continue;
            }
            boolean matches = rule.nameOnly()
                    ? rule.pattern().matches(path, name, path.length())
                    : rule.pattern().matches(path, from, path.length());
            if (matches) {
                return rule.negated() ? Verdict.NOT_IGNORED : Verdict.IGNORED;
            }
        }
        return Verdict.UNDECIDED;
    }
}
