package dev.dockhand.cli.commands;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A prompt that calls a command: {@code /name} at its very start, then the arguments (everything after the name's
 * first space or line break). A prompt that starts with a path, like {@code /usr/bin/java fails}, calls nothing: a
 * name holds no further slash.
 */
public record SlashInvocation(String name, String arguments) {
    private static final Pattern CALL =
            Pattern.compile("/([\\p{L}\\p{N}][\\p{L}\\p{N}_.:-]*)(?:\\s+(.*))?", Pattern.DOTALL);

    public static Optional<SlashInvocation> parse(String prompt) {
        Matcher matcher = CALL.matcher(prompt.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String arguments = matcher.group(2) == null ? "" : matcher.group(2).strip();
        return Optional.of(new SlashInvocation(matcher.group(1), arguments));
    }

    /** The name as built-in commands are matched: in any case. */
    public String builtinName() {
        return name.toLowerCase(Locale.ROOT);
    }
}
