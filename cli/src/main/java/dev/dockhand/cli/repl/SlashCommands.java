package dev.dockhand.cli.repl;

import dev.dockhand.cli.commands.BuiltinCommands;
import dev.dockhand.cli.commands.CustomCommand;
import dev.dockhand.cli.commands.CustomCommands;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.cli.session.SessionStats;
import dev.dockhand.core.EditDistance;
import dev.dockhand.core.agent.AgentDefinition;
import dev.dockhand.core.agent.ContextFiles;
import dev.dockhand.core.agent.SubAgents;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * The REPL's slash commands: their names and help, and the ones that only read or set session state. Those that run
 * something cancellable ({@code /compress}) are carried out by {@link Repl}, which owns the turn thread.
 */
public final class SlashCommands {
    /** One command: its name without the slash, its argument, and one line of help. */
    record Command(String name, String argument, String help) {}

    static final List<Command> ALL = List.of(
            new Command("help", "", "show the commands and keys"),
            new Command("clear", "", "start a new conversation (the old one stays in its session)"),
            new Command("model", "[PROVIDER:]NAME", "show the model, or switch to another, even at another provider"),
            new Command("approval-mode", "[MODE]", "show or set what runs without asking: " + ApprovalMode.choices()),
            new Command("tools", "", "list the tools the model can use"),
            new Command("permissions", "[remove N]", "the permission rules in force and their sources; remove one"),
            new Command("agents", "", "list the agents the model can hand tasks to, with their tools and data policy"),
            new Command("mcp", "", "the MCP servers: connected or why not, and each one's tools"),
            new Command("stats", "", "requests, tokens, cost, tool calls and time spent in this session"),
            new Command("thinking", "", "show the model's reasoning in full, or fold it into one line again"),
            new Command("memory", "show", "show the AGENTS.md / DOCKHAND.md instructions loaded"),
            new Command("compress", "", "summarise older turns now, to free context"),
            new Command("ps", "", "list the commands the model started in the background, with their output files"),
            new Command("resume", "[ID|latest]", "list this folder's sessions, or continue one"),
            new Command("checkpoints", "", "list the checkpoints taken before this session's edits and commands"),
            new Command("undo", "", "restore the files the last turn's edits and commands changed"),
            new Command("rewind", "[N]", "list the turns, or go back to before turn N: files, conversation or both"),
            new Command("init", "[--force]", "write a starting AGENTS.md for this project from what the model reads"),
            new Command("quit", "", "leave Dockhand (also Ctrl-D)"));

    private final AgentSession session;
    private final ReplScreen screen;
    private final SessionStats stats;
    private final CustomCommands custom;

    SlashCommands(AgentSession session, ReplScreen screen, SessionStats stats, CustomCommands custom) {
        this.session = session;
        this.screen = screen;
        this.stats = stats;
        this.custom = custom;
    }

    /** The names no custom command may take: the built-ins here, and those a {@code -p} run knows. */
    static Set<String> reserved() {
        Set<String> names = new TreeSet<>(BuiltinCommands.NAMES);
        ALL.forEach(command -> names.add(command.name()));
        return names;
    }

    static Optional<Command> find(String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        if (wanted.equals("exit")) {
            wanted = "quit";
        }
        for (Command command : ALL) {
            if (command.name().equals(wanted)) {
                return Optional.of(command);
            }
        }
        return Optional.empty();
    }

    /** The command closest to a mistyped one, by edit distance, custom ones among them. */
    static String nearest(String typed, CustomCommands custom) {
        String wanted = typed.toLowerCase(Locale.ROOT);
        return java.util.stream.Stream.concat(
                        ALL.stream().map(Command::name), custom.all().stream().map(CustomCommand::name))
                .min(Comparator.comparingInt(
                                (String name) -> EditDistance.between(wanted, name.toLowerCase(Locale.ROOT)))
                        .thenComparing(name -> name))
                .orElseThrow();
    }

    void help() {
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedString("Commands", AttributedStyle.BOLD));
        for (Command command : ALL) {
            String usage = "/" + command.name() + (command.argument().isEmpty() ? "" : " " + command.argument());
            lines.add(new AttributedString("  " + pad(usage, 30) + command.help()));
        }
        if (!custom.all().isEmpty()) {
            lines.add(new AttributedString("Custom commands", AttributedStyle.BOLD));
            for (CustomCommand command : custom.all()) {
                String usage =
                        "/" + command.name() + (command.argumentHint().isEmpty() ? "" : " " + command.argumentHint());
                lines.add(new AttributedString(
                        "  " + pad(Rendering.printable(usage), 30) + Rendering.printable(command.summary())));
            }
        }
        lines.add(new AttributedString("Keys", AttributedStyle.BOLD));
        lines.add(new AttributedString("  " + pad("Enter", 30) + "send"));
        lines.add(new AttributedString("  " + pad("\\ at the end, Alt-Enter, Ctrl-J", 30) + "new line"));
        lines.add(new AttributedString("  " + pad("Tab", 30) + "complete a /command or an @path"));
        lines.add(new AttributedString("  " + pad("Shift-Tab", 30) + "cycle default → auto-edit → plan"));
        lines.add(new AttributedString(
                "  " + pad("Ctrl-O", 30) + "show each tool call of running sub-agents, or fold them"));
        lines.add(new AttributedString("  " + pad("Ctrl-C", 30) + "cancel the turn; twice on an empty line: quit"));
        lines.add(new AttributedString("  " + pad("Ctrl-D", 30) + "quit"));
        lines.add(new AttributedString("In a prompt", AttributedStyle.BOLD));
        lines.add(new AttributedString("  " + pad("@path", 30) + "attach a file's content or a folder's listing"));
        lines.add(new AttributedString("  " + pad("!command", 30) + "run a command in the sandbox yourself"));
        screen.print(lines);
    }

    void tools() {
        List<AttributedString> lines = new ArrayList<>();
        for (String name : session.registry().names()) {
            Tool<?> tool = session.registry().find(name).orElseThrow();
            lines.add(new AttributedString(
                    pad(name, 20) + pad(tool.kind().name().toLowerCase(Locale.ROOT), 9) + firstSentence(tool)));
        }
        screen.print(lines);
    }

    /** Each agent: name, where it comes from, its tools (or all), turn limit and data policy, then its description. */
    void agents() {
        List<AttributedString> lines = new ArrayList<>();
        if (session.registry().find(SubAgents.TOOL_NAME).isEmpty()) {
            screen.print("The agent tool is not offered in this session, so the model starts no agents.", TurnView.DIM);
            return;
        }
        for (AgentDefinition agent : session.subAgents().definitions()) {
            lines.add(new AttributedString(
                    pad(agent.name(), 20) + agent.source() + " · "
                            + agent.tools()
                                    .map(names -> String.join(", ", names))
                                    .orElse("all tools") + " · "
                            + agent.maxTurns() + " turns · data "
                            + agent.dataPolicy().cliName()
                            + agent.model().map(model -> " · " + model).orElse(""),
                    AttributedStyle.BOLD));
            lines.add(new AttributedString("  " + Rendering.printable(agent.description()), TurnView.DIM));
        }
        screen.print(lines);
    }

    void mcp() {
        screen.print(session.mcpReport().stream().map(AttributedString::new).toList());
    }

    private static String firstSentence(Tool<?> tool) {
        String description = tool.description().strip().replace('\n', ' ');
        int end = description.indexOf(". ");
        return end < 0 ? description : description.substring(0, end + 1);
    }

    void stats() {
        screen.print(stats.report().stream().map(AttributedString::new).toList());
    }

    /** Each background command: id, state, age and command, then its output file. */
    void ps() {
        List<BackgroundProcess> all = session.sandbox().background();
        if (all.isEmpty()) {
            screen.print("No command was started in the background in this session.", TurnView.DIM);
            return;
        }
        Instant now = Instant.now();
        List<AttributedString> lines = new ArrayList<>();
        for (BackgroundProcess process : all) {
            String state = process.result().map(SlashCommands::ended).orElse("running");
            String age = Rendering.duration(Duration.between(process.started(), now));
            lines.add(new AttributedString(pad(process.id(), 7)
                    + pad(state, 16)
                    + pad(age, 11)
                    + Rendering.shorten(Rendering.printable(process.command()))));
            lines.add(new AttributedString("       " + process.outputFile(), TurnView.DIM));
        }
        screen.print(lines);
    }

    private static String ended(ExecResult result) {
        return switch (result.termination()) {
            case EXITED -> "exited " + result.exitCode();
            case CANCELLED -> "killed";
            case TIMED_OUT -> "timed out";
            case OUT_OF_MEMORY -> "out of memory";
        };
    }

    void memory(String argument) {
        if (!argument.isEmpty() && !argument.equals("show")) {
            screen.print("Use /memory show.", TurnView.YELLOW);
            return;
        }
        ContextFiles.Context context = session.context();
        if (context.files().isEmpty() && context.skipped().isEmpty()) {
            screen.print(
                    "No AGENTS.md or DOCKHAND.md was found in this folder, its parents up to the git root, or"
                            + " ~/.dockhand.",
                    TurnView.DIM);
            return;
        }
        List<AttributedString> lines = new ArrayList<>();
        for (ContextFiles.Loaded file : context.files()) {
            lines.add(new AttributedString(
                    "── " + file.path() + " (" + file.text().length() + " characters)", AttributedStyle.BOLD));
            // A project's file is the repository's text: shown, never obeyed by the terminal.
            file.text().lines().forEach(line -> lines.add(new AttributedString(Rendering.printable(line))));
        }
        for (String why : context.skipped()) {
            lines.add(new AttributedString(Rendering.printable(why), TurnView.YELLOW));
        }
        if (context.cut()) {
            lines.add(new AttributedString(
                    "(cut at " + ContextFiles.DEFAULT_BUDGET_CHARS + " characters)", TurnView.YELLOW));
        }
        screen.print(lines);
    }

    void approvalMode(String argument) {
        if (argument.isEmpty()) {
            screen.print(
                    "Approval mode: " + session.scheduler().approvalMode().cliName() + " (choices: "
                            + ApprovalMode.choices() + ")",
                    AttributedStyle.DEFAULT);
            return;
        }
        Optional<ApprovalMode> mode = ApprovalMode.parse(argument);
        if (mode.isEmpty()) {
            screen.print(
                    "'" + argument + "' is not an approval mode; use one of " + ApprovalMode.choices() + ".",
                    TurnView.YELLOW);
            return;
        }
        session.scheduler().setApprovalMode(mode.get());
        screen.print("Approval mode: " + mode.get().cliName(), AttributedStyle.DEFAULT);
    }

    /** Default → auto-edit → plan → default. Yolo is left out: a stray key must never turn approvals off. */
    void cycleApprovalMode() {
        ApprovalMode next =
                switch (session.scheduler().approvalMode()) {
                    case DEFAULT -> ApprovalMode.AUTO_EDIT;
                    case AUTO_EDIT -> ApprovalMode.PLAN;
                    case PLAN, YOLO -> ApprovalMode.DEFAULT;
                };
        session.scheduler().setApprovalMode(next);
    }

    void model(String argument) {
        if (argument.isEmpty()) {
            screen.print("Model: " + session.model().label(), AttributedStyle.DEFAULT);
            return;
        }
        try {
            session.switchModel(session.model().switchTo(argument, session.environment()));
            screen.print(
                    "Model: " + session.model().label() + " (the conversation carries on)", AttributedStyle.DEFAULT);
        } catch (DockhandException e) {
            screen.print(e.getMessage(), TurnView.YELLOW);
        }
    }

    void clear() {
        String id = AgentSession.newSessionId();
        session.startNew(id);
        stats.newConversation();
        screen.print("New conversation (session " + id + ").", TurnView.DIM);
    }

    void resume(String argument) {
        if (argument.isEmpty()) {
            listSessions();
            return;
        }
        String id;
        try {
            id = argument.equals("latest") ? latestOther() : AgentSession.findSession(session.sessions(), argument);
        } catch (DockhandException e) {
            screen.print(e.getMessage(), TurnView.YELLOW);
            return;
        }
        if (id.equals(session.sessionId())) {
            screen.print("That is the session you are in.", TurnView.DIM);
            return;
        }
        Sessions.Loaded loaded = session.resume(id);
        stats.newConversation();
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedString(
                "Resumed session " + id + ": " + loaded.userTurns() + " turns; last prompt: "
                        + Rendering.shorten(loaded.lastPrompt()),
                AttributedStyle.DEFAULT));
        for (String note : AgentSession.resumeNotes(loaded)) {
            lines.add(new AttributedString(Character.toUpperCase(note.charAt(0)) + note.substring(1), TurnView.YELLOW));
        }
        screen.print(lines);
    }

    /** The newest session other than this one. */
    private String latestOther() {
        return session.sessions().list().stream()
                .map(Sessions.Summary::id)
                .filter(id -> !id.equals(session.sessionId()))
                .findFirst()
                .orElseThrow(() ->
                        new DockhandException(ExitCodes.USAGE, "There is no other session in this folder to resume."));
    }

    private void listSessions() {
        List<Sessions.Summary> sessions = session.sessions().list();
        if (sessions.isEmpty()) {
            screen.print("No sessions in this folder yet.", TurnView.DIM);
            return;
        }
        List<AttributedString> lines = new ArrayList<>();
        for (Sessions.Summary summary : sessions) {
            String current = summary.id().equals(session.sessionId()) ? " (this one)" : "";
            lines.add(new AttributedString(summary.id() + "  " + summary.turns() + " turns  "
                    + Rendering.shorten(summary.lastPrompt()) + current));
        }
        lines.add(new AttributedString("Continue one with /resume ID (or /resume latest).", TurnView.DIM));
        screen.print(lines);
    }

    private static String pad(String text, int width) {
        return text.length() >= width ? text + " " : text + " ".repeat(width - text.length());
    }
}
