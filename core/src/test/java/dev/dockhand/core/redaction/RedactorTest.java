package dev.dockhand.core.redaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedactorTest {
    private final Random random = new Random(20261125L);

    private static Redactor redactor(SecretValues values, Set<String> allowed) {
        return Redactor.of(SecretRules.builtIn(), values, allowed, problem -> {
            throw new AssertionError(problem);
        });
    }

    private String token() {
        return "ghp_" + SecretShapes.of(random, SecretShapes.ALNUM, 36);
    }

    @Test
    void theSameValueKeepsItsPlaceholderAndEachRuleCountsItsOwn() {
        Redactor redactor = redactor(new SecretValues(), Set.of());
        String first = token();
        String second = token();
        String aws = "AKIA" + SecretShapes.of(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
        assertEquals(
                new Redactor.Redacted("a [REDACTED:github-pat:1] b [REDACTED:aws-access-token:1]", 2),
                redactor.redact("a " + first + " b " + aws));
        assertEquals(
                new Redactor.Redacted(
                        "[REDACTED:github-pat:2] then [REDACTED:github-pat:1] and [REDACTED:github-pat:1]", 3),
                redactor.redact(second + " then " + first + " and " + first));
    }

    @Test
    void aSettingsPatternThatBacktracksWithoutBoundIsDroppedWithOneWarningAndTheOthersStillRun() {
        List<String> warnings = new ArrayList<>();
        Redactor redactor = Redactor.of(
                SecretRules.builtIn()
                        .with(List.of(
                                SecretRules.Rule.of("hostile", "(.*a){12}$"),
                                SecretRules.Rule.of("ticket", "TICKET-[0-9]{6}"))),
                new SecretValues(),
                Set.of(),
                warnings::add);
        // Thirty a's and no match at the end: the twelve nested .* try about 30^12 splits before failing, which
        // took 42 s on its own here (Java's regex engine defuses the textbook (a+)+$, but not this).
        String trap = "a".repeat(30) + "!";
        String token = token();

        assertEquals(
                new Redactor.Redacted(trap + " [REDACTED:github-pat:1] [REDACTED:ticket:1]", 2),
                redactor.redact(trap + " " + token + " TICKET-123456"));
        assertEquals(new Redactor.Redacted(trap + " [REDACTED:ticket:2]", 1), redactor.redact(trap + " TICKET-654321"));
        assertEquals(
                List.of("The redaction pattern 'hostile' from the settings was dropped for this session: it took too"
                        + " long on a 86-character output (its regex backtracks without bound); fix it in the"
                        + " settings file."),
                warnings);
    }

    @Test
    void aValueOnceRedactedIsFoundWithoutTheContextItsRuleNeeded() {
        Redactor redactor = redactor(new SecretValues(), Set.of());
        String password = SecretShapes.of(random, SecretShapes.ALNUM, 20);
        redactor.redact("postgres://app:" + password + "@db:5432/app");
        assertEquals(new Redactor.Redacted("echo [REDACTED:basic-auth-url:1]", 1), redactor.redact("echo " + password));
    }

    @Test
    void theUsersOwnValuesAreFoundAsTheyAreUrlEncodedAndBase64Encoded() {
        String value = "pa ss/" + SecretShapes.of(random, SecretShapes.ALNUM, 14) + "&=";
        Redactor redactor = redactor(new SecretValues().add("user-secret", value), Set.of());
        String basic = Base64.getEncoder().encodeToString(("deploy:" + value).getBytes(StandardCharsets.UTF_8));
        String urlEncoded = URLEncoder.encode(value, StandardCharsets.UTF_8);
        for (String shown : List.of(
                "x " + value + " y",
                "https://host/?p=" + urlEncoded,
                "Authorization: Basic " + basic,
                "blob " + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))) {
            Redactor.Redacted redacted = redactor.redact(shown);
            assertEquals(1, redacted.count(), redacted.text());
            assertEquals(shown, redactor.expand(redacted.text()));
        }
        assertEquals(
                "x [REDACTED:user-secret:1] y",
                redactor.redact("x " + value + " y").text());
    }

    @Test
    void environmentVariablesAreSecretByTheirNames() {
        String random16 = SecretShapes.of(random, SecretShapes.ALNUM, 24);
        Map<String, String> environment = Map.of(
                "OPENAI_API_KEY", "value-of-openai",
                "GH_TOKEN", "value-of-gh-token",
                "MY_CLIENT_SECRET_VALUE", "value-of-client",
                "PGPASSWORD", "value-of-pg",
                "SIGNING_KEY", random16,
                "MONKEY_KEY", "aaaaaaaaaaaaaaaaaaaa",
                "PATH", "/usr/local/bin:/usr/bin",
                "HOME", "/home/someone");
        Redactor redactor = redactor(new SecretValues().addEnvironment(environment), Set.of());
        String text = String.join("\n", environment.values());
        List<String> kept = new ArrayList<>(redactor.redact(text).text().lines().toList());
        kept.removeIf(line -> line.startsWith("[REDACTED:env-"));
        assertEquals(Set.of("aaaaaaaaaaaaaaaaaaaa", "/usr/local/bin:/usr/bin", "/home/someone"), Set.copyOf(kept));
    }

    @Test
    void allowedValuesAreNotRedacted() {
        String token = token();
        Redactor redactor = redactor(new SecretValues(), Set.of(token));
        assertEquals(new Redactor.Redacted("t " + token, 0), redactor.redact("t " + token));
    }

    @Test
    void placeholdersExpandToTheirValuesAndUnknownOnesStay() {
        Redactor redactor = redactor(new SecretValues(), Set.of());
        String token = token();
        redactor.redact(token);
        assertEquals(
                "git push https://" + token + "@github.com/o/r [REDACTED:github-pat:7]",
                redactor.expand("git push https://[REDACTED:github-pat:1]@github.com/o/r [REDACTED:github-pat:7]"));
        assertEquals(Set.of(true, false), Set.of(redactor.expandsInto("edit"), redactor.expandsInto("web_fetch")));
        assertEquals(
                List.of(true, true, true, false, false),
                List.of(
                        redactor.expandsInto("edit"),
                        redactor.expandsInto("write_file"),
                        redactor.expandsInto("run_shell_command"),
                        redactor.expandsInto("web_fetch"),
                        redactor.expandsInto("mcp__github__create_issue")));
    }

    @Test
    void aPrivateKeyCutByTheOutputLimitsIsRedactedOnEachSideOfTheCut() {
        Redactor redactor = redactor(new SecretValues(), Set.of());
        List<String> lines = SecretShapes.privateKey(random).secret().lines().toList();
        String head = String.join("\n", lines.subList(0, 8));
        String tail = String.join("\n", lines.subList(20, lines.size()));
        String marker = "\n\n[... 12 lines omitted. The whole output is in out.txt ...]\n\n";
        assertEquals(
                new Redactor.Redacted("start\n[REDACTED:private-key-cut:1]" + marker + "end", 1),
                redactor.redact("start\n" + head + marker + "end"));
        assertEquals(
                new Redactor.Redacted("start" + marker + "[REDACTED:private-key-tail:1]\nend", 1),
                redactor.redact("start" + marker + tail + "\nend"));
    }

    @Test
    void aToolResultIsRedactedInBothTexts() {
        Redactor redactor = redactor(new SecretValues(), Set.of());
        String token = token();
        assertEquals(
                new ToolResult("read " + "[REDACTED:github-pat:1]", "1 line [REDACTED:github-pat:1]", Optional.empty()),
                redactor.redact(ToolResult.success("read " + token, "1 line " + token)));
        assertEquals(
                ToolResult.error(ToolErrorType.EXECUTION_FAILED, "no [REDACTED:github-pat:1]"),
                redactor.redact(ToolResult.error(ToolErrorType.EXECUTION_FAILED, "no " + token)));
    }

    @Test
    void offRedactsNothing() {
        String token = token();
        assertEquals(new Redactor.Redacted(token, 0), Redactor.OFF.redact(token));
        assertEquals(false, Redactor.OFF.expandsInto("edit"));
    }

    @Test
    void aResumedSessionMapsThePlaceholdersOfItsHistoryAgain(@TempDir Path home) throws Exception {
        Path transcript = home.resolve("sessions/s1.jsonl");
        String token = token();
        String other = token();
        Redactor first = redactor(new SecretValues(), Set.of());
        first.attach(transcript);
        first.redact("a " + token + " b " + other);
        Path saved = home.resolve("sessions/s1.jsonl.redactions");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(saved)));

        Redactor resumed = redactor(new SecretValues(), Set.of());
        resumed.attach(transcript);
        assertEquals("x " + other, resumed.expand("x [REDACTED:github-pat:2]"));
        String third = token();
        assertEquals(
                new Redactor.Redacted("[REDACTED:github-pat:1] [REDACTED:github-pat:3]", 2),
                resumed.redact(token + " " + third));
    }
}
