package dev.dockhand.cli.session;

import dev.dockhand.cli.agents.AgentFiles;
import dev.dockhand.cli.config.CheckpointSettings;
import dev.dockhand.cli.config.ModelChoice;
import dev.dockhand.cli.config.RedactionSettings;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.environment.WallClock;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.ContextFiles;
import dev.dockhand.core.agent.SubAgents;
import dev.dockhand.core.agent.SystemPrompt;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.hooks.Hooks;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelFamilies;
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
import dev.dockhand.sandbox.HostHookProcess;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.tools.BuiltinTools;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    /** The run's checkpoints; null when {@code checkpoints.enabled} is false. */
    private final SessionCheckpoints checkpoints;

    private ModelChoice model;
    private ModelClient client;
    private String sessionId;
    private volatile Transcript transcript;
    private AgentLoop loop;
    /** The user's hooks, or null when none is configured. */
    private final Hooks hooks;
    /** Whether a conversation was begun, so the next new one is a {@code clear} for SessionStart hooks. */
    private boolean begun;
    /** The MCP servers (McpServers, typed loosely so that no MCP class loads without one), or null. */
    private AutoCloseable mcp;

    private final SubAgents subAgents;
    private volatile boolean mcpAttached;

    private AgentSession(
            RunOptions options,
            CliEnvironment environment,
            Path outputDir,
            Workspace workspace,
            ToolRegistry registry,
            Sandbox sandbox,
            Approver approver,
            AgentEventSink events,
            SubAgents subAgents) {
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
        CheckpointSettings checkpointing = CheckpointSettings.load(environment);
        this.checkpoints = checkpointing.enabled()
                ? SessionCheckpoints.start(checkpointing, environment, name -> registry.find(name)
                        .map(tool -> tool.kind() != dev.dockhand.core.tool.ToolKind.READ)
                        .orElse(false))
                : null;
        if (checkpoints != null) {
            scheduler.setCheckpoints(checkpoints);
        }
        // Hooks run on the host, outside the sandbox, with the user's environment: they are the user's own commands.
        this.hooks = options.hooks().isEmpty()
                ? null
                : new Hooks(
                        options.hooks(), new HostHookProcess(environment.variables()), workspace.root(), this.events);
        if (hooks != null) {
            scheduler.setHooks(hooks);
        }
        scheduler.setRedactor(redactor(options, environment, this.events));
        if (hooks != null) {
            hooks.setRedactor(scheduler.redactor());
        }
        onSchedulerReady.accept(scheduler);
        this.context = ContextFiles.load(
                workspace.root(), environment.settingsHome(), ContextFiles.DEFAULT_BUDGET_CHARS, scheduler.redactor());
        this.subAgents = subAgents;
        subAgents.bind(new SubAgents.Binding(
                registry, scheduler, () -> loop, approver, this.events, this::subAgentTranscript, workspace.root()));
        // After /model to another provider, an agent's model of the first one is no longer served.
        subAgents.checkModels(name -> ModelFamilies.mismatch(model.provider(), model.baseUrl(), name));
    }

    /**
     * A sub-agent's transcript, in {@code <session-id>.agents/} beside the session's: named after the agent's id, with
     * a suffix when a resumed session's earlier run used the name.
     */
    private Optional<Transcript> subAgentTranscript(String agentId, String agentModel) {
        String id = sessionId;
        if (id == null) {
            return Optional.empty();
        }
        Path folder = sessions.file(id).resolveSibling(id + ".agents");
        Path file = folder.resolve(agentId + ".jsonl");
        for (int n = 2; Files.exists(file); n++) {
            file = folder.resolve(agentId + "~" + n + ".jsonl");
        }
        return Optional.of(Transcript.open(
                file,
                agentId,
                workspace.root(),
                agentModel,
                problem -> events.accept(new AgentEvent.Warning(problem))));
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
        if (options.sandbox() == RunOptions.SandboxKind.DOCKER) {
            Sandboxes.refuseHomeMounts(workspace.roots(), environment);
        }
        AutoCloseable mcp = McpSetup.start(options, environment, err);
        SubAgents subAgents = subAgents(options, environment, err);
        List<Tool<?>> all = new ArrayList<>(tools(options));
        all.add(subAgents.tool());
        List<Tool<?>> offered = options.headless().select(all, mcp != null);
        List<Tool<?>> withheld =
                all.stream().filter(tool -> !offered.contains(tool)).toList();
        ToolRegistry registry = new ToolRegistry(offered, options.headless().withheld(all, offered), withheld);
        McpSetup.offer(registry, mcp);
        Sandbox sandbox;
        try {
            sandbox = Sandboxes.open(options, workspace, environment, err);
        } catch (SandboxUnavailableException | RuntimeException e) {
            McpSetup.stop(mcp);
            throw e;
        }
        try {
            McpSetup.sandboxOpened(mcp, sandbox);
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
        AgentSession session = new AgentSession(
                options, environment, outputDir, workspace, registry, sandbox, approver, events, subAgents);
        session.mcp = mcp;
        options.hooks().notices().forEach(notice -> err.println("dockhand: " + notice));
        session.context.skipped().forEach(why -> err.println("dockhand: " + Rendering.printable(why)));
        if (session.context.cut()) {
            err.println("dockhand: the AGENTS.md files exceed " + ContextFiles.DEFAULT_BUDGET_CHARS
                    + " characters; the rest was left out of the model's instructions.");
            err.flush();
        }
        return session;
    }

    /**
     * The built-in agents and those of the user's agent files, and the project's when the folder is trusted; each file
     * that cannot be used is said in one sentence and skipped.
     */
    private static SubAgents subAgents(RunOptions options, CliEnvironment environment, PrintWriter err) {
        List<Path> folders = new ArrayList<>();
        folders.add(AgentFiles.userFolder(environment.settingsHome()));
        if (options.projectTrusted()) {
            folders.add(AgentFiles.projectFolder(environment.workingDirectory()));
        }
        ModelChoice model = options.model();
        AgentFiles.Loaded loaded = AgentFiles.forProvider(
                AgentFiles.load(folders), name -> ModelFamilies.mismatch(model.provider(), model.baseUrl(), name));
        if (!loaded.problems().isEmpty()) {
            loaded.problems().forEach(problem -> err.println("dockhand: " + problem));
            err.flush();
        }
        return new SubAgents(loaded.definitions());
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
            notes.add("a line of the session was cut short (Dockhand was stopped while writing it); the session goes"
                    + " on from the line before it.");
        }
        if (!loaded.repaired().isEmpty()) {
            notes.add(loaded.repaired().size() + " tool call(s) left unfinished by a crash were answered as"
                    + " interrupted.");
        }
        return notes;
    }

    /** Starts a new conversation with its own transcript. */
    public void startNew(String id) {
        String source = begun ? "clear" : "startup";
        Conversation conversation = begin(id);
        observe(conversation, 0);
        sessionStart(source);
    }

    /** Continues session {@code id} with its full history, repairing what a crash left unfinished. */
    public Sessions.Loaded resume(String id) {
        Conversation conversation = begin(id);
        Sessions.Loaded loaded = Sessions.resume(sessions.file(id), conversation, transcript);
        observe(conversation, Sessions.read(sessions.file(id)).messages().size());
        sessionStart("resume");
        return loaded;
    }

    /**
     * Cuts the conversation to its first {@code keptMessages} messages (as the transcript reads back): the transcript
     * records the rewind and keeps every line, and the conversation continues from the cut, as a resume of it would.
     */
    public Sessions.Loaded rewind(int keptMessages) {
        transcript.recordRewind(keptMessages);
        return resume(sessionId);
    }

    /** The messages of the current session as its transcript reads back, rewinds applied. */
    public List<dev.dockhand.core.conversation.Message> recordedMessages() {
        Path file = sessions.file(sessionId);
        return Files.exists(file) ? Sessions.read(file).messages() : List.of();
    }

    /** The transcript records each message, and the checkpoints learn from it which turn a call belongs to. */
    private void observe(Conversation conversation, int recorded) {
        Transcript current = transcript;
        if (checkpoints == null) {
            conversation.observe(current::record);
            return;
        }
        checkpoints.session(sessionId, recorded);
        conversation.observe(message -> {
            current.record(message);
            checkpoints.observe(message);
        });
    }

    /** The run's checkpoints; empty when {@code checkpoints.enabled} is false. */
    public java.util.Optional<SessionCheckpoints> checkpoints() {
        return java.util.Optional.ofNullable(checkpoints);
    }

    /** Runs the SessionStart hooks; what they add goes with the conversation's first prompt. */
    private void sessionStart(String source) {
        if (hooks != null) {
            hooks.sessionStart(source, new Cancellation());
        }
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
                client(), model.model(), registry::declarations, scheduler, conversation, options.maxTurns(), events);
        loop.setContextPolicy(options.contextPolicy());
        loop.setReasoningEffort(options.reasoningEffort());
        if (hooks != null) {
            hooks.session(id, sessions.file(id));
            loop.setHooks(hooks);
        }
        begun = true;
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
        if (mcp != null && !mcpAttached && event instanceof AgentEvent.RequestStarted) {
            // The servers' news so far goes out before the first request, after a headless run's init line.
            mcpAttached = true;
            McpSetup.attach(mcp, events);
        }
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
        } else if (event instanceof AgentEvent.SubAgentFinished finished) {
            current.recordEntry(finished.run().record());
        }
    }

    /** The MCP servers as {@code /mcp} shows them: each one's state, then its tools with their descriptions. */
    public List<String> mcpReport() {
        return McpSetup.report(mcp);
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

    /** The agents the main agent can start ({@code /agents}). */
    public SubAgents subAgents() {
        return subAgents;
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

    /**
     * Closes the transcript and the sandbox; saved outputs stay, an empty outputs folder goes, and other sessions'
     * outputs older than a week go too.
     */
    @Override
    public void close() {
        closeTranscript();
        if (checkpoints != null) {
            checkpoints.close();
        }
        McpSetup.stop(mcp);
        // What the last copy back left in the sandbox has no command result to go in any more: the user is told, as
        // warnings (a line on stderr; in stream-json also a warning line, before the result line that follows).
        for (String notice : sandbox.closeAndReport()) {
            events.accept(new AgentEvent.Warning(notice));
        }
        try {
            Files.deleteIfExists(outputDir);
        } catch (IOException notEmpty) {
            // Holds saved outputs: kept on purpose.
        }
        SavedOutputs.prune(outputDir.getParent(), outputDir, Instant.now());
    }
}
