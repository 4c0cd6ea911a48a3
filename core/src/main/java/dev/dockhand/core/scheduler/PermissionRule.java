package dev.dockhand.core.scheduler;

import dev.dockhand.core.glob.Wildcard;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One permission rule: {@code tool} or {@code tool(pattern)}, whether it allows, asks or denies, and where it was
 * written ({@code source}, a few words for the user and the model, like {@code user settings}). What the pattern
 * means depends on the tool:
 *
 * <ul>
 *   <li>{@code run_shell_command}: a command, where {@code *} stands for any characters ({@code git status*}); a
 *       final {@code " *"} may also stand for nothing ({@code git status *} covers {@code git status} and
 *       {@code git status -s}, not {@code git statusx}); no {@code *} means that exact command;
 *   <li>the file tools: a glob over workspace-relative paths, where {@code **} crosses folders, {@code *} and
 *       {@code ?} do not; a rule that matches a folder covers what is inside it;
 *   <li>{@code web_fetch}: {@code domain:HOST}, or {@code domain:*.HOST} for its subdomains;
 *   <li>MCP tools take no pattern: {@code mcp__server} covers every tool of that server.
 * </ul>
 */
public record PermissionRule(Decision decision, String tool, Optional<String> pattern, String source) {

    /** What a matching rule does. */
    public enum Decision {
        ALLOW,
        ASK,
        DENY;

        /** The settings key the rule is listed under. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a tool's pattern is matched against. */
    enum Subject {
        COMMAND,
        PATH,
        DOMAIN,
        NONE
    }

    private static final Set<String> FILE_TOOLS =
            Set.of("read_file", "write_file", "edit", "list_directory", "glob", "grep");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final String MCP = "mcp__";

    public PermissionRule {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(source, "source");
    }

    /**
     * Reads a rule as written in settings.
     *
     * @throws IllegalArgumentException with the end of a sentence saying what is wrong, after "... is not a rule: "
     */
    public static PermissionRule parse(Decision decision, String text, String source) {
        String rule = text == null ? "" : text.strip();
        int open = rule.indexOf('(');
        String tool = open < 0 ? rule : rule.substring(0, open).strip();
        if (!NAME.matcher(mcpServerWide(tool)).matches()) {
            throw new IllegalArgumentException("write a tool's name, like run_shell_command, optionally with a pattern"
                    + " in parentheses, like run_shell_command(git status*).");
        }
        if (open < 0) {
            return new PermissionRule(decision, mcpServerWide(tool), Optional.empty(), source);
        }
        if (!rule.endsWith(")")) {
            throw new IllegalArgumentException("the pattern's closing parenthesis is missing.");
        }
        String pattern = rule.substring(open + 1, rule.length() - 1).strip();
        if (pattern.isEmpty()) {
            throw new IllegalArgumentException("the pattern in parentheses is empty; leave the parentheses out to"
                    + " cover every call of " + tool + ".");
        }
        switch (subjectOf(tool)) {
            case COMMAND -> {
                // Any text is a command prefix.
            }
            case PATH -> {
                if (pattern.startsWith("/") || pattern.startsWith("~")) {
                    throw new IllegalArgumentException(
                            "file patterns are relative to the workspace, like " + tool + "(docs/**).");
                }
            }
            case DOMAIN -> {
                if (!pattern.startsWith("domain:")
                        || pattern.length() == "domain:".length()
                        || pattern.substring("domain:".length()).contains("/")) {
                    throw new IllegalArgumentException(
                            "web_fetch takes domain:HOST, like web_fetch(domain:docs.oracle.com).");
                }
            }
            case NONE -> throw new IllegalArgumentException(tool + " takes no pattern; only run_shell_command,"
                    + " web_fetch and the file tools ("
                    + String.join(", ", FILE_TOOLS.stream().sorted().toList())
                    + ") do" + (tool.startsWith(MCP) ? ", and mcp__server covers every tool of a server." : "."));
        }
        return new PermissionRule(decision, tool, Optional.of(pattern), source);
    }

    /** {@code mcp__server__*} means the same as {@code mcp__server}. */
    private static String mcpServerWide(String tool) {
        return tool.startsWith(MCP) && tool.endsWith("__*") ? tool.substring(0, tool.length() - 3) : tool;
    }

    static Subject subjectOf(String tool) {
        if (tool.equals("run_shell_command")) {
            return Subject.COMMAND;
        }
        if (tool.equals("web_fetch")) {
            return Subject.DOMAIN;
        }
        return FILE_TOOLS.contains(tool) ? Subject.PATH : Subject.NONE;
    }

    /** The rule as written in settings. */
    public String text() {
        return pattern.map(p -> tool + "(" + p + ")").orElse(tool);
    }

    /** Whether the rule names this call's tool: its own name, or the server of an MCP tool. */
    boolean names(String called) {
        if (called.equals(tool)) {
            return true;
        }
        return tool.startsWith(MCP) && !tool.substring(MCP.length()).contains("__") && called.startsWith(tool + "__");
    }

    /** Whether the pattern matches one command (its words joined by single spaces). */
    boolean matchesCommand(String command) {
        return pattern.map(p -> RulePatterns.command(p).matches(command)).orElse(true);
    }

    /** Whether the pattern matches a workspace-relative path, or one of the folders it is in. */
    boolean matchesPath(String path) {
        if (pattern.isEmpty()) {
            return true;
        }
        Wildcard glob = RulePatterns.glob(normalised(pattern.get()));
        String candidate = path;
        while (true) {
            if (glob.matches(candidate)) {
                return true;
            }
            int slash = candidate.lastIndexOf('/');
            if (slash < 0) {
                return false;
            }
            candidate = candidate.substring(0, slash);
        }
    }

    /**
     * Whether the pattern could match something inside {@code folder} (workspace-relative, {@code .} for the root),
     * for a tool that walks the folder: the pattern's literal leading folders and the folder lie one inside the
     * other, or the pattern starts with {@code **}; a pattern without {@code **} also needs more folders than
     * {@code folder} has, since it matches paths of its own depth only.
     */
    boolean mayMatchUnder(String folder) {
        if (pattern.isEmpty()) {
            return true;
        }
        String normal = normalised(pattern.get());
        if (normal.startsWith("**")) {
            return true;
        }
        String[] segments = normal.split("/");
        int depth = folder.equals(".") ? 0 : folder.split("/").length;
        if (!normal.contains("**") && segments.length <= depth) {
            return false;
        }
        List<String> literal = new ArrayList<>();
        for (String segment : segments) {
            if (segment.contains("*") || segment.contains("?")) {
                break;
            }
            literal.add(segment);
        }
        String prefix = String.join("/", literal);
        return folder.equals(".")
                || prefix.isEmpty()
                || prefix.equals(folder)
                || prefix.startsWith(folder + "/")
                || folder.startsWith(prefix + "/");
    }

    private static String normalised(String pattern) {
        String normal = pattern.replace('\\', '/');
        while (normal.startsWith("./")) {
            normal = normal.substring(2);
        }
        if (normal.endsWith("/") && normal.length() > 1) {
            normal = normal.substring(0, normal.length() - 1);
        }
        return normal;
    }

    /** Whether the pattern covers a host. */
    boolean matchesHost(String host) {
        if (pattern.isEmpty()) {
            return true;
        }
        String wanted = pattern.get().substring("domain:".length()).toLowerCase(Locale.ROOT);
        if (wanted.startsWith("*.")) {
            return host.endsWith(wanted.substring(1));
        }
        return host.equals(wanted);
    }

    @Override
    public String toString() {
        return decision.key() + " " + text() + " (" + source + ")";
    }
}
