package dev.dockhand.core.redaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The placeholders of an untrusted project's patterns redact like any other but never get their values back in a
 * call's arguments; and the approval question shows the values that could change what a call does.
 */
class UnexpandedPlaceholdersTest {
    private static final String PAYLOAD = "PAYLOAD\\{([^}]*)\\}";

    @TempDir
    Path sessions;

    private final String token = "ghp_" + SecretShapes.of(new Random(20261125L), SecretShapes.ALNUM, 36);

    private static Redactor redactor(SecretRules.Rule pattern) {
        return Redactor.of(SecretRules.builtIn().with(List.of(pattern)), new SecretValues(), Set.of(), problem -> {
            throw new AssertionError(problem);
        });
    }

    @Test
    void anUntrustedProjectsPatternRedactsButItsPlaceholderIsNeverExpanded() {
        Redactor redactor = redactor(SecretRules.Rule.of("payload", PAYLOAD).unexpanded());

        assertEquals(
                new Redactor.Redacted("Setup: PAYLOAD{[REDACTED:payload:1]}", 1),
                redactor.redact("Setup: PAYLOAD{--short; touch /tmp/pwned}"));
        assertEquals("git status [REDACTED:payload:1]", redactor.expand("git status [REDACTED:payload:1]"));
        assertEquals("git status [REDACTED:payload:1]", redactor.shown("git status [REDACTED:payload:1]"));
    }

    @Test
    void aTrustedPatternsPlaceholderIsExpanded() {
        Redactor redactor = redactor(SecretRules.Rule.of("payload", PAYLOAD));
        redactor.redact("Setup: PAYLOAD{--short; touch /tmp/pwned}");

        assertEquals("git status --short; touch /tmp/pwned", redactor.expand("git status [REDACTED:payload:1]"));
    }

    @Test
    void aSecretAnUntrustedPatternStretchesOverItsOwnTextIsNotExpanded() {
        // It starts inside the token, so the two merge under the token's placeholder, with the command in its value.
        Redactor redactor = redactor(
                SecretRules.Rule.of("tail", "(_[A-Za-z0-9]+; touch [^ ]*)").unexpanded());

        String redacted = redactor.redact(token + "; touch /tmp/pwned").text();

        assertEquals("[REDACTED:github-pat:1]", redacted);
        assertEquals("[REDACTED:github-pat:1]", redactor.expand(redacted));
    }

    @Test
    void aValueAnUntrustedPatternAlsoFindsStopsExpanding() {
        Redactor redactor =
                redactor(SecretRules.Rule.of("all", "(ghp_[A-Za-z0-9]+)").unexpanded());

        String redacted = redactor.redact("token " + token).text();

        assertEquals("token [REDACTED:github-pat:1]", redacted);
        assertEquals("[REDACTED:github-pat:1]", redactor.expand("[REDACTED:github-pat:1]"));
    }

    @Test
    void aResumedSessionKeepsAnUntrustedPlaceholderUnexpandedAndTheOthersExpanded() {
        Path transcript = sessions.resolve("s.jsonl");
        Redactor first = redactor(SecretRules.Rule.of("payload", PAYLOAD).unexpanded());
        first.attach(transcript);
        first.redact("PAYLOAD{rm -rf ~} and " + token);

        // The resumed run trusts nothing new: it reads which placeholders expand from the session's file.
        Redactor resumed = redactor(SecretRules.Rule.of("other", "OTHER"));
        resumed.attach(transcript);

        assertEquals("[REDACTED:payload:1] " + token, resumed.expand("[REDACTED:payload:1] [REDACTED:github-pat:1]"));
    }

    @Test
    void theQuestionShowsAValueThatIsNotOnePlainWordAndKeepsAPlainTokenBehindItsPlaceholder() {
        Redactor redactor = redactor(SecretRules.Rule.of("v", "V\\{([^}]*)\\}"));
        redactor.redact(String.join(
                " ",
                "V{--output=/etc/passwd}",
                "V{a b}",
                "V{x;y}",
                "V{$(id)}",
                "V{it's}",
                "V{a|b}",
                "V{ab/c+d=e:f@g%h.i_j-k}",
                "V{ab+c=d%e_f-g}",
                token));

        assertEquals(
                // A slash, a colon, an at sign or a dot may make a path, a URL or a host: shown.
                "--output=/etc/passwd a b x;y $(id) it's a|b ab/c+d=e:f@g%h.i_j-k [REDACTED:v:8]"
                        + " [REDACTED:github-pat:1]",
                redactor.shown(String.join(
                        " ",
                        "[REDACTED:v:1]",
                        "[REDACTED:v:2]",
                        "[REDACTED:v:3]",
                        "[REDACTED:v:4]",
                        "[REDACTED:v:5]",
                        "[REDACTED:v:6]",
                        "[REDACTED:v:7]",
                        "[REDACTED:v:8]",
                        "[REDACTED:github-pat:1]")));
    }
}
