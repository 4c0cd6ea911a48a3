package dev.dockhand.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.HostPrograms;
import dev.dockhand.core.Json;
import dev.dockhand.core.tool.ToolContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * ripgrep, when installed, for grep and glob ({@link RipgrepFiles}). Its flags are chosen so that it searches exactly
 * what {@link JavaGrep} does: hidden files too, {@code .git} never, .gitignore (and .git/info/exclude) honoured even
 * outside a git repository, no global or {@code .ignore} files, no configuration file, in path order. A pattern ripgrep's regex engine cannot read returns empty, and
 * the Java search takes over; so does an answer whose lines could not all be confirmed through the workspace
 * ({@link RipgrepMatches}).
 */
final class Ripgrep {
    private final Path executable;

    Ripgrep(Path executable) {
        this.executable = executable;
    }

    /** ripgrep from the PATH's absolute folders, if there is one (never one the workspace ships: HostPrograms). */
    static Optional<Ripgrep> find() {
        return HostPrograms.find("rg").map(Ripgrep::new);
    }

    /** The matches below {@code start}; empty when the Java search must answer. {@code guard} stops the check. */
    Optional<GrepTool.Found> search(GrepTool.Params params, Path start, int max, ToolContext context, RegexGuard guard)
            throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(List.of("--json", "--sort", "path"));
        if (Boolean.TRUE.equals(params.caseInsensitive())) {
            flags.add("--ignore-case");
        }
        if (params.glob() != null) {
            flags.add("--glob");
            flags.add(params.glob());
        }
        flags.add("--regexp");
        flags.add(params.pattern());
        // Run from the search folder with a relative path: ripgrep anchors globs with a slash to the path it walks,
        // which must be relative for "src/*.java" to mean what it means to the Java search.
        boolean folder = Files.isDirectory(start);
        Path directory = folder ? start : start.getParent();
        Process process =
                start(flags, directory, folder ? "." : start.getFileName().toString());
        // One match past max, when there is one, says that more exist; it is confirmed like the others.
        List<GrepTool.Match> matches = new ArrayList<>();
        try (var ignored = context.cancellation().onCancel(process::destroyForcibly);
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                JsonNode event = Json.MAPPER.readTree(line);
                if (!event.path("type").asText().equals("match")) {
                    continue;
                }
                matches.add(match(directory, event.path("data")));
                if (matches.size() > max) {
                    process.destroyForcibly();
                    break;
                }
            }
        }
        process.waitFor(5, TimeUnit.SECONDS);
        boolean more = matches.size() > max;
        if (!more && process.exitValue() == 2 && matches.isEmpty()) {
            // ripgrep's regex engine refused the pattern (lookaround, backreferences): let Java search.
            return Optional.empty();
        }
        if (!RipgrepMatches.confirmed(matches, GrepTool.compile(params), context.workspace(), guard)) {
            return Optional.empty();
        }
        return Optional.of(new GrepTool.Found(List.copyOf(more ? matches.subList(0, max) : matches), more));
    }

    /**
     * Starts ripgrep in {@code directory} on {@code path} with the flags that make it walk what the Java walk does
     * (see the class comment) and {@code flags} for the work at hand; its standard input is closed, its messages
     * dropped. {@code --no-config}: a {@code RIPGREP_CONFIG_PATH} file could add any flag, following links among them.
     */
    Process start(List<String> flags, Path directory, String path) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                executable.toString(),
                "--no-config",
                "--hidden",
                "--no-require-git",
                "--no-ignore-global",
                "--no-ignore-dot",
                "--glob",
                "!.git",
                "--no-messages"));
        command.addAll(flags);
        command.add("--");
        command.add(path);
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        process.getOutputStream().close();
        return process;
    }

    private static GrepTool.Match match(Path directory, JsonNode data) {
        String text = data.path("lines").path("text").asText();
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        return new GrepTool.Match(
                directory.resolve(data.path("path").path("text").asText()).normalize(),
                data.path("line_number").asLong(),
                text);
    }
}
