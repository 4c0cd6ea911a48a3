package dev.dockhand.cli.commands;

import dev.dockhand.cli.config.ModelChoice;
import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.scheduler.PermissionRule;
import dev.dockhand.core.scheduler.PermissionRules;
import dev.dockhand.core.scheduler.SessionApprovals;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One turn of a custom command: its prompt, the tools it lets run without a question, the model it goes to, and a
 * sentence for each part of its front matter that was not applied. Both last only for the turn: the tools' approval
 * is taken back and the model switched back when it ends, however it ends.
 *
 * <p>What a project's command may do depends on the folder's trust. Its prompt always counts: a prompt is what the user
 * asked for by typing its name. Its {@code allowed-tools} widen what runs unasked, so they apply only in a trusted
 * folder. Its {@code model} applies when the conversation stays with the same server and key and the model costs no
 * more than the session's, each kind of token priced (what an untrusted folder's settings may choose too); another
 * provider or server, or a dearer or unpriced model, needs a trusted folder.
 */
public record CommandTurn(
        String prompt,
        Set<String> allowedTools,
        List<PermissionRule> allowRules,
        Optional<ModelChoice> model,
        List<String> notes) {

    public CommandTurn {
        allowedTools = Set.copyOf(allowedTools);
        allowRules = List.copyOf(allowRules);
        notes = List.copyOf(notes);
    }

    /**
     * The turn of {@code /name arguments} in {@code session}; {@code trusted} whether the folder is, {@code pricing}
     * what an untrusted project's model is measured by. A model that
     * cannot be used (no key for its provider, a bad name) throws the DockhandException that {@code /model} would,
     * unless an untrusted project's command named it: that turn runs on the session's model, with a note. A prompt
     * that comes out blank throws a usage error ({@link CustomCommand#refusal}).
     */
    public static CommandTurn plan(
            CustomCommand command, String arguments, boolean trusted, Pricing pricing, AgentSession session) {
        Optional<String> refused = command.refusal(arguments);
        if (refused.isPresent()) {
            throw new DockhandException(ExitCodes.USAGE, refused.get());
        }
        List<String> notes = new ArrayList<>();
        boolean project = command.scope() == CustomCommand.Scope.PROJECT;
        Set<String> allowed = new LinkedHashSet<>();
        List<PermissionRule> rules = new ArrayList<>();
        if (project && !trusted && !command.allowedTools().isEmpty()) {
            notes.add("/" + command.name() + "'s allowed-tools (" + String.join(", ", command.allowedTools())
                    + ") were not applied: this folder is not trusted, and they would let calls run without asking"
                    + " (trust it with 'dockhand trust').");
        } else {
            for (String tool : command.allowedTools()) {
                if (tool.contains("(")) {
                    // A pattern is a permission rule, as in settings: allow only the calls it matches.
                    try {
                        rules.add(PermissionRule.parse(
                                PermissionRule.Decision.ALLOW, tool, "/" + command.name() + "'s allowed-tools"));
                    } catch (IllegalArgumentException e) {
                        notes.add("/" + command.name() + ": allowed-tools entry '" + tool + "' was not applied: "
                                + e.getMessage());
                    }
                } else if (session.registry().find(tool).isEmpty()) {
                    notes.add("/" + command.name() + ": allowed-tools entry '" + tool + "' names no tool of this"
                            + " session (/tools lists them).");
                } else {
                    allowed.add(tool);
                }
            }
        }
        Optional<ModelChoice> model = Optional.empty();
        if (command.model().isPresent()) {
            ModelChoice current = session.model();
            ModelChoice wanted;
            try {
                wanted = current.switchTo(command.model().get(), session.environment());
            } catch (DockhandException e) {
                if (!project || trusted) {
                    throw e;
                }
                // An untrusted folder's choice is a wish, not an order: the turn runs on the session's model.
                wanted = current;
                notes.add("/" + command.name() + "'s model " + command.model().get() + " was not used: "
                        + e.getMessage());
            }
            boolean sameServer = wanted.baseUrl().equals(current.baseUrl())
                    && wanted.apiKey().equals(current.apiKey());
            if (project && !trusted && !sameServer) {
                notes.add("/" + command.name() + "'s model " + command.model().get() + " was not used: this folder"
                        + " is not trusted, and it would send the conversation to another server.");
            } else if (project && !trusted && !pricing.noDearer(wanted.model(), current.model())) {
                notes.add("/" + command.name() + "'s model " + command.model().get() + " was not used: this folder"
                        + " is not trusted, and neither Dockhand's prices nor your pricing settings show it costs no"
                        + " more than " + current.model() + ".");
            } else if (!wanted.label().equals(current.label())) {
                model = Optional.of(wanted);
            }
        }
        return new CommandTurn(command.prompt(arguments), allowed, rules, model, notes);
    }

    /** Runs the turn in {@code session}, then takes back what it allowed and switches the model back. */
    public TurnResult run(AgentSession session, Cancellation cancel) throws ProviderException {
        SessionApprovals approvals = session.scheduler().sessionApprovals();
        // Only what the session did not allow already is taken back after the turn.
        List<String> granted =
                allowedTools.stream().filter(tool -> !approvals.isAllowed(tool)).toList();
        ModelChoice before = session.model();
        granted.forEach(approvals::allow);
        CoreToolScheduler scheduler = session.scheduler();
        scheduler.setPermissions(scheduler.permissions().with(allowRules));
        try {
            model.ifPresent(session::switchModel);
            return session.loop().run(prompt, cancel);
        } finally {
            granted.forEach(approvals::revoke);
            // Each of the turn's own rules, not the rules as they were: the user may have added one meanwhile.
            PermissionRules now = scheduler.permissions();
            for (PermissionRule rule : allowRules) {
                now = now.without(rule);
            }
            scheduler.setPermissions(now);
            if (model.isPresent()) {
                session.switchModel(before);
            }
        }
    }
}
