package dev.dockhand.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.config.CheckpointSettings;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.environment.TerminalText;
import dev.dockhand.cli.session.Restores;
import dev.dockhand.cli.session.SessionCheckpoints;
import dev.dockhand.core.Json;
import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.checkpoint.RestorePlan;
import dev.dockhand.core.sandbox.HostWrites;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code dockhand checkpoints list|restore|diff}: this folder's checkpoints, taken before every call of the model's
 * that may change files, and the way back to the state before one of them (see docs/checkpoints.md).
 */
public final class CheckpointsCommand implements Callable<Integer> {
    private final DockhandCommand parent;
    private final String action;
    private CommandSpec spec;

    private CheckpointsCommand(DockhandCommand parent, String action) {
        this.parent = parent;
        this.action = action;
    }

    /** Declares {@code checkpoints} and its three subcommands under {@code root}. */
    static void declare(CommandSpec root, DockhandCommand command) {
        // Alone, the group only shows its usage: what to do is always one of the three.
        CommandSpec[] groupSpec = new CommandSpec[1];
        Callable<Integer> usage = () -> {
            groupSpec[0].commandLine().usage(groupSpec[0].commandLine().getErr());
            return ExitCodes.USAGE;
        };
        CommandSpec group = CommandSpec.wrapWithoutInspection(usage);
        groupSpec[0] = group;
        group.usageMessage()
                .description("List this folder's checkpoints, restore the files to their state before one, or show"
                        + " what changed since one.");
        group.addOption(help());
        root.addSubcommand("checkpoints", group);

        CheckpointsCommand list = new CheckpointsCommand(command, "list");
        list.spec = CommandSpec.wrapWithoutInspection(list);
        list.spec.usageMessage().description("List the checkpoints, oldest first.");
        list.spec.addOption(OptionSpec.builder("--session")
                .paramLabel("ID")
                .type(String.class)
                .description("Only the checkpoints of this session.")
                .build());
        list.spec.addOption(OptionSpec.builder("--output-format", "-o")
                .paramLabel("FORMAT")
                .type(String.class)
                .defaultValue("text")
                .description("text (default) or json: an array of {id, session_id, time, tool, files}.")
                .build());
        list.spec.addOption(help());
        group.addSubcommand("list", list.spec);

        CheckpointsCommand restore = new CheckpointsCommand(command, "restore");
        restore.spec = CommandSpec.wrapWithoutInspection(restore);
        restore.spec
                .usageMessage()
                .description("Restore the files the calls since checkpoint ID changed to their state before it:"
                        + " created files are removed, changed, renamed and deleted ones put back. Asks first on a"
                        + " terminal; without one, --yes is required (exit "
                        + ExitCodes.CONFIRMATION_REQUIRED + ").");
        restore.spec.addPositional(id());
        restore.spec.addOption(OptionSpec.builder("--yes", "-y")
                .type(boolean.class)
                .description("Restore without asking.")
                .build());
        restore.spec.addOption(help());
        group.addSubcommand("restore", restore.spec);

        CheckpointsCommand diff = new CheckpointsCommand(command, "diff");
        diff.spec = CommandSpec.wrapWithoutInspection(diff);
        diff.spec.usageMessage().description("Show what changed in the files since checkpoint ID, as a unified diff.");
        diff.spec.addPositional(id());
        diff.spec.addOption(help());
        group.addSubcommand("diff", diff.spec);
    }

    private static OptionSpec help() {
        return OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .description("Show this help message and exit.")
                .build();
    }

    private static PositionalParamSpec id() {
        return PositionalParamSpec.builder()
                .paramLabel("ID")
                .arity("1")
                .type(String.class)
                .description("A checkpoint id, as dockhand checkpoints list shows it.")
                .build();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return switch (action) {
                case "list" -> list(out, err);
                case "restore" -> restore(out, err);
                default -> diff(out, err);
            };
        } catch (IOException | RuntimeException e) {
            err.println("dockhand: the checkpoints of this folder cannot be read: " + e.getMessage());
            return ExitCodes.CHECKPOINT_FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private Optional<CheckpointStore> store() throws IOException {
        CliEnvironment environment = parent.environment();
        if (!Files.isDirectory(
                CheckpointStore.folder(SessionCheckpoints.root(environment), environment.workingDirectory()))) {
            return Optional.empty();
        }
        return Optional.of(SessionCheckpoints.open(CheckpointSettings.load(environment), environment));
    }

    private <T> T value(String name) {
        return spec.findOption(name).getValue();
    }

    private int list(PrintWriter out, PrintWriter err) throws IOException {
        String format = value("--output-format");
        if (!format.equals("text") && !format.equals("json")) {
            err.println("dockhand: --output-format for checkpoints list is text or json, not " + format + ".");
            return ExitCodes.USAGE;
        }
        String session = value("--session");
        List<Checkpoint> checkpoints;
        Optional<CheckpointStore> opened = store();
        if (opened.isEmpty()) {
            checkpoints = List.of();
        } else {
            try (CheckpointStore store = opened.get()) {
                checkpoints = store.list().stream()
                        .filter(checkpoint ->
                                session == null || checkpoint.sessionId().equals(session))
                        .toList();
            }
        }
        if (format.equals("json")) {
            ArrayNode array = Json.MAPPER.createArrayNode();
            for (Checkpoint checkpoint : checkpoints) {
                ObjectNode node = array.addObject()
                        .put("id", checkpoint.id())
                        .put("session_id", checkpoint.sessionId())
                        .put("time", checkpoint.time().toString())
                        .put("tool", checkpoint.tool());
                checkpoint.files().forEach(node.putArray("files")::add);
            }
            PrintWriter json = TerminalText.unfiltered(out);
            json.println(Json.writePrintable(array));
            json.flush();
            return ExitCodes.OK;
        }
        if (checkpoints.isEmpty()) {
            out.println("No checkpoints in this folder yet.");
        }
        for (Checkpoint checkpoint : checkpoints) {
            out.println(Restores.line(checkpoint));
        }
        return ExitCodes.OK;
    }

    private Optional<Checkpoint> find(CheckpointStore store, String id, PrintWriter err) throws IOException {
        Optional<Checkpoint> found = store.find(id);
        if (found.isEmpty()) {
            err.println("dockhand: there is no checkpoint " + id + " in this folder; list them with dockhand"
                    + " checkpoints list.");
        }
        return found;
    }

    /** What a subcommand does with the checkpoint its argument names, in the store it was found in. */
    private interface OnCheckpoint {
        int run(CheckpointStore store, Checkpoint checkpoint, String id) throws IOException;
    }

    /** Opens the folder's store and finds the checkpoint named by the argument; says so when there is none. */
    private int withCheckpoint(PrintWriter err, OnCheckpoint action) throws IOException {
        String id = spec.positionalParameters().get(0).getValue();
        Optional<CheckpointStore> opened = store();
        if (opened.isEmpty()) {
            err.println("dockhand: there is no checkpoint " + id + " in this folder; none was taken here yet.");
            return ExitCodes.USAGE;
        }
        try (CheckpointStore store = opened.get()) {
            Optional<Checkpoint> checkpoint = find(store, id, err);
            return checkpoint.isEmpty() ? ExitCodes.USAGE : action.run(store, checkpoint.get(), id);
        }
    }

    private int restore(PrintWriter out, PrintWriter err) throws IOException {
        return withCheckpoint(err, (store, checkpoint, id) -> {
            List<Checkpoint> undone = store.since(checkpoint);
            RestorePlan plan = store.plan(undone);
            if (plan.isEmpty()) {
                out.println("The files are already as they were before " + id + "; nothing to restore.");
                return ExitCodes.OK;
            }
            out.println("Restoring to before " + id + " (" + checkpoint.tool() + ": "
                    + Rendering.printable(Rendering.shorten(checkpoint.summary())) + "):");
            Restores.describe(plan).forEach(out::println);
            if (!Boolean.TRUE.equals(value("--yes"))) {
                CliEnvironment environment = parent.environment();
                if (!environment.stdinIsTerminal()) {
                    err.println("dockhand: nothing was restored: confirm with --yes when there is no terminal to ask"
                            + " on.");
                    return ExitCodes.CONFIRMATION_REQUIRED;
                }
                out.print("Restore these files? [y/N] ");
                out.flush();
                String answer = new BufferedReader(new InputStreamReader(environment.stdin(), StandardCharsets.UTF_8))
                        .readLine();
                if (answer == null
                        || !answer.strip().toLowerCase(java.util.Locale.ROOT).startsWith("y")) {
                    out.println("Nothing was restored.");
                    return ExitCodes.CONFIRMATION_REQUIRED;
                }
            }
            // No sandbox runs in this process: nothing of its own copies back into the workspace.
            CheckpointStore.Restored restored = Restores.restore(store, plan, undone, HostWrites.NONE);
            int done = restored.restored().size();
            out.println("Restored " + done + (done == 1 ? " file." : " files."));
            Restores.skipped(restored).forEach(out::println);
            if (!restored.skipped().isEmpty()) {
                err.println("dockhand: the restore was partial: " + Restores.partial(restored, checkpoint));
                return ExitCodes.CHECKPOINT_FAILED;
            }
            return ExitCodes.OK;
        });
    }

    private int diff(PrintWriter out, PrintWriter err) throws IOException {
        // A diff bound for a file or a program keeps every byte (a CRLF file's carriage returns); one shown on a
        // terminal goes through the filter, since the files' text is the model's and a command's.
        PrintWriter diff = parent.environment().stdoutIsFile() ? TerminalText.unfiltered(out) : out;
        return withCheckpoint(err, (store, checkpoint, id) -> {
            diff.print(store.diff(checkpoint));
            diff.flush();
            return ExitCodes.OK;
        });
    }
}
