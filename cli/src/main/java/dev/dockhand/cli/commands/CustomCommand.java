package dev.dockhand.cli.commands;

import dev.dockhand.core.Utf16;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A prompt kept as a Markdown file and run as {@code /name}: from the project's {@code .dockhand/commands/} or the
 * user's {@code ~/.dockhand/commands/}. {@code allowedTools} are the tools its turn may call without a question (a
 * project's only in a trusted folder); {@code model} the model its turn goes to.
 */
public record CustomCommand(
        String name,
        Scope scope,
        Path file,
        String description,
        String argumentHint,
        List<String> allowedTools,
        Optional<String> model,
        String body) {

    /** Where a command was found. */
    public enum Scope {
        /** The folder's own {@code .dockhand/commands/}: written by whoever wrote the repository. */
        PROJECT,
        /** The user's {@code ~/.dockhand/commands/}. */
        USER;

        /** How {@code /help} and completion mark it. */
        public String label() {
            return this == PROJECT ? "project" : "user";
        }
    }

    public CustomCommand {
        allowedTools = List.copyOf(allowedTools);
    }

    /**
     * The prompt the model gets for {@code /name arguments} (see {@link CommandArguments}), without the blank lines
     * that a file begins or ends with.
     */
    public String prompt(String arguments) {
        return CommandArguments.fill(body, arguments).strip();
    }

    /**
     * Why {@code /name arguments} cannot run, when its prompt comes out blank (a body of {@code $ARGUMENTS} alone,
     * typed without arguments; an empty file): one sentence for the user. A blank prompt never goes to the model.
     */
    public Optional<String> refusal(String arguments) {
        if (!prompt(arguments).isBlank()) {
            return Optional.empty();
        }
        if (body.isBlank()) {
            return Optional.of("/" + name + " has no prompt: " + file + " is empty.");
        }
        String usage = argumentHint.isBlank() ? "" : " (/" + name + " " + argumentHint.strip() + ")";
        return Optional.of("/" + name + " needs arguments: its prompt is empty without them" + usage + ".");
    }

    /** One line for {@code /help} and completion: the description, else the body's first line, then the scope. */
    public String summary() {
        String text = description.isEmpty() ? body.strip().lines().findFirst().orElse("") : description;
        if (text.length() > 80) {
            text = Utf16.head(text, 79) + "…";
        }
        return (text.isEmpty() ? "" : text + " ") + "(" + scope.label() + ")";
    }
}
