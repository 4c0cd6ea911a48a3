package dev.dockhand.cli.headless;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Utf16;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * {@code --summary-file}: a short Markdown report of a run, made from the same result object the JSON output prints,
 * for a CI job's summary page ({@code $GITHUB_STEP_SUMMARY}) or its artifacts. Written at the end of every run,
 * failed or cut short ones too, since those are the runs whose report is read.
 */
public final class RunSummary {
    /** The answer is shown up to this length; the transcript keeps the rest. */
    static final int ANSWER_CHARS = 4000;

    private static final int ARGUMENT_CHARS = 80;

    private RunSummary() {}

    public static String markdown(JsonNode result) {
        StringBuilder text = new StringBuilder();
        JsonNode error = result.path("error");
        int exitCode = result.path("exit_code").asInt();
        text.append("## Dockhand: ")
                .append(error.isObject() ? "stopped (" + error.path("kind").asText() + ")" : "answered")
                .append("\n\n");
        if (error.isObject()) {
            text.append("**Why:** ")
                    .append(oneLine(error.path("message").asText()))
                    .append("\n\n");
        }
        String answer = result.path("answer").asText();
        if (!answer.isBlank()) {
            text.append(
                            answer.length() > ANSWER_CHARS
                                    ? Utf16.head(answer, ANSWER_CHARS) + "\n\n*(answer cut; the session has it all)*"
                                    : answer.strip())
                    .append("\n\n");
        }
        JsonNode calls = result.path("tool_calls");
        if (calls.isArray() && !calls.isEmpty()) {
            text.append("| # | tool | arguments | status | time |\n| --- | --- | --- | --- | --- |\n");
            int number = 1;
            for (JsonNode call : calls) {
                text.append("| ")
                        .append(number++)
                        .append(" | `")
                        .append(cell(call.path("name").asText()))
                        .append("` | ")
                        .append(cell(cut(call.path("arguments").toString(), ARGUMENT_CHARS)))
                        .append(" | ")
                        .append(cell(call.path("status").asText()))
                        .append(" | ")
                        .append(duration(call.path("duration_ms").asLong()))
                        .append(" |\n");
            }
            text.append('\n');
        }
        JsonNode usage = result.path("usage");
        text.append("**Tokens:** ")
                .append(String.format(
                        Locale.ROOT, "%,d", usage.path("input_tokens").asLong()))
                .append(" in (")
                .append(String.format(
                        Locale.ROOT, "%,d", usage.path("cached_input_tokens").asLong()))
                .append(" from the cache), ")
                .append(String.format(
                        Locale.ROOT, "%,d", usage.path("output_tokens").asLong()))
                .append(" out")
                .append(usage.path("estimated").asBoolean() ? " (partly estimated)" : "")
                .append(" · **Cost:** ")
                .append(
                        usage.path("cost_usd").isNumber()
                                ? String.format(
                                        Locale.ROOT,
                                        "$%.4f",
                                        usage.path("cost_usd").asDouble())
                                : "unknown (no price for this model)")
                .append("\n\n");
        text.append("**Requests:** ")
                .append(result.path("turns").asInt())
                .append(" · **Time:** ")
                .append(duration(result.path("duration_ms").asLong()))
                .append(" · **Exit code:** ")
                .append(exitCode)
                .append(" · **Session:** `")
                .append(cell(result.path("session_id").asText()))
                .append("`\n");
        return text.toString();
    }

    /**
     * Adds the summary to an existing file, as {@code $GITHUB_STEP_SUMMARY} expects (earlier commands of the step may
     * have written to it), in one write; a new file is written whole or not at all, readable by the job's other users
     * (a runner reading the summary of a container job that ran as another uid).
     */
    static void write(Path file, JsonNode result) throws IOException {
        Path absolute = file.toAbsolutePath();
        String markdown = markdown(result);
        if (Files.exists(absolute)) {
            Files.writeString(absolute, markdown, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            return;
        }
        Path parent = absolute.getParent();
        Files.createDirectories(parent);
        Path temporary = Files.createTempFile(parent, ".dockhand-summary", ".md");
        try {
            Files.writeString(temporary, markdown, StandardCharsets.UTF_8);
            if (temporary.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static String duration(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String cut(String text, int limit) {
        return text.length() > limit ? Utf16.head(text, limit) + "…" : text;
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').strip();
    }

    /** Text that cannot break the table: no pipes, newlines or backticks. */
    private static String cell(String text) {
        return oneLine(text).replace("|", "\\|").replace("`", "'");
    }
}
