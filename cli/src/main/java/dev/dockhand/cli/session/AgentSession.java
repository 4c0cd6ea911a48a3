package dev.dockhand.cli.session;

import dev.dockhand.cli.config.ModelChoice;
import dev.dockhand.cli.config.RedactionSettings;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.WallClock;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.ContextFiles;
import dev.dockhand.core.agent.SystemPrompt;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.tools.BuiltinTools;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * What a run talks to the model with: workspace, tools, sandbox, scheduler, and the current conversation with its
 * transcript. The single-shot run holds one conversation; the REPL starts new ones ({@code /clear}), resumes old ones
 * ({@code /resume}) and switches models, all over the same sandbox and session approvals.
 */
public final class AgentSession implements AutoCloseable {
    private final RunOptions options;
    private final CliEnvironment environment;
    private final Sessions sessions;
    private final Workspace workspace;
    private final ToolRegistry registry;
    private final Sandbox sandbox;
    private final CoreToolScheduler scheduler;
    private final ContextFiles.Context context;
    private final AgentEventSink events;
    private final Path outputDir;
    private ModelChoice model;
    private ModelClient client;
    private String sessionId;
    private volatile Transcript transcript;
    private AgentLoop loop;
    /** The MCP servers (McpServers, typed loosely so that no MCP class loads without one), or null. */
    private AutoCloseable mcp;

    private AgentSession(
            RunOptions options,
            CliEnvironment environment,
            Path outputDir,
            Workspace workspace,
            ToolRegistry registry,
            Sandbox sandbox,
            Approver approver,
            AgentEventSink events) {
        this.options = options;
        this.environment = environment;
        this.sessions = new Sessions(environment.home(), environment.workingDirectory());
        this.outputDir = outputDir;
        this.workspace = workspace;
        this.registry = registry;
        this.sandbox = sandbox;
        this.model = options.model();
        this.events = event -> {
            record(event);
            events.accept(event);
        };
        this.scheduler = new CoreToolScheduler(
                registry,
                new ToolEnvironment(workspace, sandbox, options.outputLimits(), outputDir),
                approver,
                options.approvalMode(),
                options.approvalRules(),
                this.events);
        scheduler.setRedactor(redactor(options, environment, this.events));
        onSchedulerReady.accept(scheduler);
        this.context =
                ContextFiles.load(workspace.root(), environment.settingsHome(), ContextFiles.DEFAULT_BUDGET_CHARS);
    }

    /**
     * The session's redactor (see docs/trust-and-safety.md): the built-in rules and the settings' patterns, and as
     * known values the provider key, the secret-looking environment variables, those passed to commands with
     * {@code --sandbox-env}, and the user's {@code redaction.secretValues}. Off when the user's settings say so.
     */
    static Redactor redactor(RunOptions options, CliEnvironment environment, AgentEventSink events) {
        RedactionSettings settings = options.redaction();
        if (!settings.enabled()) {
            return Redactor.OFF;
        }
        SecretValues values =
                new SecretValues().add("provider-key", options.model().apiKey());
        for (String name : options.sandboxEnvNames()) {
            environment.get(name).ifPresent(value -> values.add("env-" + name, value));
        }
        values.addEnvironment(environment.variables());
        settings.secretValues().forEach(value -> values.add("user-secret", value));
        return Redactor.of(
                SecretRules.builtIn().with(settings.patterns()),
                values,
                settings.allowedValues(),
                problem -> events.accept(new AgentEvent.Warning(problem)));
    }

    /** Called with each new session's scheduler; the entry point sets it to warm the validator up (Warmup). */
    public static volatile Consumer<CoreToolScheduler> onSchedulerReady = scheduler -> {};

    /**
     * Opens the sandbox and the tools. Tool outputs too long for the model are saved under
     * {@code ~/.dockhand/tmp/<outputsId>}, which the tools may read back.
     */
    public static AgentSession open(
            RunOptions options,
            CliEnvironment environment,
            String outputsId,
            Approver approver,
            AgentEventSink events,
            PrintWriter err)
            throws SandboxUnavailableException {
        Path outputDir = environment.home().resolve("tmp").resolve(outputsId);
        Workspace workspace =
                new Workspace(environment.workingDirectory(), options.includeDirectories(), List.of(outputDir));
        AutoCloseable mcp = McpSetup.start(options, environment, err);
        List<Tool<?>> all = McpSetup.withTools(tools(options), mcp);
        List<Tool<?>> offered = options.headless().select(all);
        ToolRegistry registry = new ToolRegistry(offered, options.headless().withheld(all, offered));
        Sandbox sandbox;
        try {
            sandbox = Sandboxes.open(options, workspace, environment, err);
        } catch (SandboxUnavailableException | RuntimeException e) {
            McpSetup.stop(mcp);
            throw e;
        }
        AgentSession session =
                new AgentSession(options, environment, outputDir, workspace, registry, sandbox, approver, events);
        session.mcp = mcp;
        if (session.context.cut()) {
            err.println("dockhand: the AGENTS.md files exceed " + ContextFiles.DEFAULT_BUDGET_CHARS
                    + " characters; the rest was left out of the model's instructions.");
            err.flush();
        }
        return session;
    }

    private static List<Tool<?>> tools(RunOptions options) {
        try {
            return BuiltinTools.all(options.webFetchAllowedHosts());
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, "webFetch.allowedHosts: " + e.getMessage());
        }
    }

    /**
     * A new session id: sortable by time, unique by its random tail. The tail needs no secure random: it only keeps
     * two sessions started in the same second in one folder apart, and SecureRandom's start-up is felt on every run.
     */
    public static String newSessionId() {
        long tail = ThreadLocalRandom.current().nextInt() & 0xffffffffL;
        return WallClock.compact(WallClock.now()) + "-"
                + Long.toHexString(tail | 0x1_0000_0000L).substring(1);
    }

    /** The id of a session to resume ({@code latest} or an id), or a usage error naming what is missing. */
    public static String findSession(Sessions sessions, String wanted) {
        return sessions.find(wanted)
                .orElseThrow(() -> new DockhandException(
                        ExitCodes.USAGE,
                        wanted.equals("latest")
                                ? "There is no session in this folder to resume yet."
                                : "There is no session " + wanted + " in this folder; list them with dockhand"
                                        + " sessions."));
    }

    /** What resuming had to repair or skip, one sentence each, for the user. */
    public static List<String> resumeNotes(Sessions.Loaded loaded) {
        List<String> notes = new ArrayList<>();
        if (loaded.cutLastLine()) {
            notes.add("the session's last line was cut short (Dockhand was stopped while writing it) and was"
                    + " skipped.");
        }
        if (!loaded.repaired().isEmpty()) {
            notes.add(loaded.repaired().size() + " tool call(s) left unfinished by a crash were answered as"
                    + " interrupted.");
        }
        return notes;
    }

    /** Starts a new conversation with its own transcript. */
    public void startNew(String id) {
        Conversation conversation = begin(id);
        conversation.observe(transcript::record);
    }

    /** Continues session {@code id} with its full history, repairing what a crash left unfinished. */
    public Sessions.Loaded resume(String id) {
        Conversation conversation = begin(id);
        return Sessions.resume(sessions.file(id), conversation, transcript);
    }

    private Conversation begin(String id) {
        closeTranscript();
        sessionId = id;
        scheduler.redactor().attach(sessions.file(id));
        Conversation conversation = new Conversation(SystemPrompt.build(
                workspace.root(), sandbox.kind(), WallClock.now().toLocalDate(), context));
        transcript = Transcript.open(
                sessions.file(id),
                id,
                workspace.root(),
                model.model(),
                problem -> events.accept(new AgentEvent.Warning(problem)));
        loop = new AgentLoop(
                client(), model.model(), registry.declarations(), scheduler, conversation, options.maxTurns(), events);
        loop.setContextPolicy(options.contextPolicy());
        loop.setReasoningEffort(options.reasoningEffort());
        return conversation;
    }

    /** Continues the current conversation with another model, perhaps at another provider. */
    public void switchModel(ModelChoice choice) {
        ModelClient next = choice.client();
        model = choice;
        client = next;
        loop.switchModel(next, choice.model());
    }

    private ModelClient client() {
        if (client == null) {
            client = model.client();
        }
        return client;
    }

    /** Writes what the conversation's observer does not see: usage, failures, compressions. */
    private void record(AgentEvent event) {
        Transcript current = transcript;
        if (current == null) {
            return;
        }
        if (event instanceof AgentEvent.Usage usage) {
            current.recordUsage(usage.usage());
        } else if (event instanceof AgentEvent.ReplyFailed failed) {
            current.recordError(failed.error(), failed.partialText());
        } else if (event instanceof AgentEvent.Compressed compressed) {
            current.recordCompression(
                    compressed.summarisedMessages(), compressed.tokensBefore(), compressed.tokensAfter());
        }
    }

    public AgentLoop loop() {
        return loop;
    }

    public String sessionId() {
        return sessionId;
    }

    public ModelChoice model() {
        return model;
    }

    public Workspace workspace() {
        return workspace;
    }

    public ToolRegistry registry() {
        return registry;
    }

    public Sandbox sandbox() {
        return sandbox;
    }

    public CoreToolScheduler scheduler() {
        return scheduler;
    }

    public ContextFiles.Context context() {
        return context;
    }

    public Sessions sessions() {
        return sessions;
    }

    public CliEnvironment environment() {
        return environment;
    }

    private void closeTranscript() {
        if (transcript != null) {
            transcript.close();
            transcript = null;
        }
    }

    /** Closes the transcript and the sandbox; saved outputs stay, an empty outputs folder goes. */
    @Override
    public void close() {
        closeTranscript();
        McpSetup.stop(mcp);
        sandbox.close();
        try {
            Files.deleteIfExists(outputDir);
        } catch (IOException notEmpty) {
            // Holds saved outputs: kept on purpose.
        }
    }
}
