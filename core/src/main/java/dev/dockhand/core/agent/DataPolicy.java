package dev.dockhand.core.agent;

import java.util.Locale;
import java.util.Optional;

/** What of a sub-agent's own conversation the session keeps; the answer reaches the main conversation whatever. */
public enum DataPolicy {
    /** Its whole conversation, in a transcript beside the session's, linked from it. */
    FULL,
    /** Its answer, counts and usage in the session's transcript; not its conversation. */
    SUMMARY,
    /** Only the fact that it ran (its id, agent and outcome). */
    NONE;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code full}, {@code summary} or {@code none}, in any case. */
    public static Optional<DataPolicy> parse(String value) {
        for (DataPolicy policy : values()) {
            if (policy.cliName().equalsIgnoreCase(value.strip())) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }
}
