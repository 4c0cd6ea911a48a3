package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 32's run: a workspace with an ordinary {@code .env}, a deploy key, a token passed to commands with
 * {@code --sandbox-env} and a git remote that carries a token. The model reads the secrets, lists the environment and
 * the remotes, and edits the line next to a key, writing back the placeholder it was shown.
 */
class SecretRedactionRunTest extends CliTest {
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final Pattern STRIPE_LINE =
            Pattern.compile("STRIPE_SECRET_KEY=(\\[REDACTED:[A-Za-z0-9_.-]+:\\d+\\])");

    private final Random random = new Random(20261125L);

    private String random(String alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    @Test
    void noSecretReachesARequestOrTheTranscriptAndTheEditKeepsTheKeyNextToIt() throws Exception {
        String awsId = "AKIA" + random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
        String awsSecret = random(ALNUM + "/+", 40);
        String githubToken = "ghp_" + random(ALNUM, 36);
        String dbPassword = random(ALNUM, 20);
        String stripeKey = "sk_live_" + random(ALNUM, 24);
        String deployToken = random(ALNUM, 32);
        String remoteToken = "ghs_" + random(ALNUM, 36);
        List<String> keyLines = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            keyLines.add(random(ALNUM + "+/", 70));
        }
        String env = "AWS_ACCESS_KEY_ID=" + awsId + "\n"
                + "AWS_SECRET_ACCESS_KEY=" + awsSecret + "\n"
                + "GITHUB_TOKEN=" + githubToken + "\n"
                + "DATABASE_URL=postgres://app:" + dbPassword + "@db.internal:5432/app\n"
                + "STRIPE_SECRET_KEY=" + stripeKey + "\n"
                + "DEBUG=true\n";
        Files.writeString(cli.workspace.resolve(".env"), env);
        Files.writeString(
                cli.workspace.resolve("deploy_key"),
                "-----BEGIN OPENSSH PRIVATE KEY-----\n" + String.join("\n", keyLines)
                        + "\n-----END OPENSSH PRIVATE KEY-----\n");
        git("init", "-q");
        git("remote", "add", "origin", "https://x-access-token:" + remoteToken + "@github.com/acme/app.git");
        cli.variables.put("DEPLOY_TOKEN", deployToken);

        script();

        assertEquals(
                ExitCodes.OK,
                cli.run(
                        "--yolo",
                        "--sandbox",
                        "none",
                        "--sandbox-env",
                        "DEPLOY_TOKEN",
                        "--output-format",
                        "stream-json",
                        "-p",
                        "check the deployment settings"),
                cli.err::toString);

        List<String> secrets = new ArrayList<>(
                List.of(awsId, awsSecret, githubToken, dbPassword, stripeKey, deployToken, remoteToken));
        secrets.addAll(keyLines);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sent.add(cli.model.takeRequest().toString());
        }
        assertEquals(List.of(), leaked(sent, secrets), "requests");
        List<String> transcript = transcriptLines();
        assertEquals(List.of(), leaked(transcript, secrets), "transcript");
        assertEquals(List.of(), leaked(cli.out.toString().lines().toList(), secrets), "stdout");
        assertEquals(
                env.replace("DEBUG=true", "DEBUG=false"),
                Files.readString(cli.workspace.resolve(".env"), StandardCharsets.UTF_8));
        assertEquals(
                List.of("r1 5", "r2 1", "s1 1", "s2 2", "e1 3"),
                cli.out
                        .toString()
                        .lines()
                        .map(Json::read)
                        .filter(line -> line.get("type").asText().equals("tool_result"))
                        .map(line -> line.get("id").asText() + " "
                                + line.get("redacted").asInt())
                        .toList());
        // The edit ran with the key's value, and what the model read of its diff has the placeholder again.
        JsonNode last = Json.read(sent.get(3));
        String editResult = last.get("messages")
                .get(last.get("messages").size() - 1)
                .get("content")
                .asText();
        assertEquals(false, editResult.contains(stripeKey), editResult);
    }

    /**
     * The model reads .env and the key, runs env and git remote -v, then edits the line under the Stripe key, writing
     * back the placeholder it was shown for the key.
     */
    private void script() {
        cli.model.enqueue(
                calls(
                        toolCall("r1", "read_file", "{\"path\":\".env\"}"),
                        toolCall("r2", "read_file", "{\"path\":\"deploy_key\"}")),
                calls(
                        toolCall("s1", "run_shell_command", "{\"command\":\"env\"}"),
                        toolCall("s2", "run_shell_command", "{\"command\":\"git remote -v\"}")));
        cli.model.reply(request -> {
            // The model writes back the placeholder it was shown for the key on the line above the one it edits.
            Matcher shown = STRIPE_LINE.matcher(request.toString());
            String placeholder = shown.find() ? shown.group(1) : "(not shown)";
            String edit = Json.write(Json.object()
                    .put("path", ".env")
                    .put("old_string", "STRIPE_SECRET_KEY=" + placeholder + "\nDEBUG=true")
                    .put("new_string", "STRIPE_SECRET_KEY=" + placeholder + "\nDEBUG=false"));
            return calls(toolCall("e1", "edit", edit));
        });
        cli.model.enqueue(answer("Done."));
    }

    /** Reads notes.txt once with a stream-json run and returns its tool_result line. */
    private JsonNode readNotes() {
        cli.model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")), answer("Read."));
        assertEquals(
                ExitCodes.OK,
                cli.run("--yolo", "--output-format", "stream-json", "-p", "read the notes"),
                cli.err::toString);
        return cli.out
                .toString()
                .lines()
                .map(Json::read)
                .filter(line -> line.get("type").asText().equals("tool_result"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aProjectAddsPatternsButCannotTurnRedactionOffNorAllowValues() throws Exception {
        String token = "ghp_" + random(ALNUM, 36);
        Files.writeString(
                cli.workspace.resolve("notes.txt"),
                "token " + token + "\nticket ACME-" + random("0123456789", 6) + "\n");
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(
                cli.workspace.resolve(".dockhand/settings.json"),
                "{\"redaction\": {\"enabled\": false, \"allowedValues\": [\"" + token + "\"],"
                        + " \"patterns\": [{\"id\": \"acme-ticket\", \"regex\": \"ACME-[0-9]{6}\"}]}}");

        JsonNode result = readNotes();

        assertEquals(2, result.get("redacted").asInt(), result::toString);
        assertEquals(
                List.of(false, true),
                List.of(
                        result.get("result").asText().contains(token),
                        result.get("result").asText().contains("[REDACTED:acme-ticket:1]")));
        assertEquals(
                true,
                cli.err
                        .toString()
                        .contains("ignored redaction.enabled, redaction.allowedValues: only your own settings"),
                cli.err::toString);
    }

    @Test
    void theUsersOwnSettingsTurnRedactionOff() throws Exception {
        String token = "ghp_" + random(ALNUM, 36);
        Files.writeString(cli.workspace.resolve("notes.txt"), "token " + token + "\n");
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), "{\"redaction\": {\"enabled\": false}}");

        JsonNode result = readNotes();

        assertEquals(
                List.of(0, true),
                List.of(
                        result.get("redacted").asInt(),
                        result.get("result").asText().contains(token)));
    }

    private static List<String> leaked(List<String> texts, List<String> secrets) {
        List<String> leaks = new ArrayList<>();
        for (String text : texts) {
            for (String secret : secrets) {
                if (text.contains(secret)) {
                    leaks.add(secret + " in " + (text.length() > 200 ? text.substring(0, 200) + "…" : text));
                }
            }
        }
        return leaks;
    }

    private List<String> transcriptLines() throws IOException {
        Path sessions = temp.resolve("home").resolve("sessions");
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sessions)) {
            for (Path file :
                    files.filter(path -> path.toString().endsWith(".jsonl")).toList()) {
                lines.addAll(Files.readAllLines(file));
            }
        }
        assertEquals(true, lines.size() > 5, "the run's transcript was written");
        return lines;
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .directory(cli.workspace.toFile())
                .redirectErrorStream(true)
                .start();
        process.getInputStream().readAllBytes();
        assertEquals(0, process.waitFor(), "git " + String.join(" ", args));
    }
}
