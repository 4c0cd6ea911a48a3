package dev.dockhand.core.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.Workspace;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * What permission rules look at in one call, gathered before they are matched so that matching is a pure function:
 * the tool's name, the shell command, the paths a file tool names (workspace-relative, {@code /}-separated,
 * normalised, and the real path too when a symbolic link leads elsewhere) and the host a fetch reaches.
 */
public record CallFacts(String tool, Optional<String> command, List<String> paths, Optional<String> host) {

    public CallFacts {
        paths = List.copyOf(paths);
    }

    /** A call with nothing but its tool's name. */
    public static CallFacts named(String tool) {
        return new CallFacts(tool, Optional.empty(), List.of(), Optional.empty());
    }

    /**
     * The facts of a call whose arguments passed validation. The file tools' {@code path} defaults to the workspace
     * root, as the tools' own do.
     */
    public static CallFacts of(ToolCall call, Workspace workspace) {
        return of(call, Optional.of(workspace));
    }

    /** The facts that need no workspace: a file tool's paths are left out. */
    public static CallFacts of(ToolCall call) {
        return of(call, Optional.empty());
    }

    private static CallFacts of(ToolCall call, Optional<Workspace> workspace) {
        JsonNode arguments;
        try {
            arguments = Json.MAPPER.readTree(call.arguments());
        } catch (IOException e) {
            arguments = null;
        }
        if (arguments == null) {
            arguments = Json.object();
        }
        JsonNode given = arguments;
        String tool = call.name();
        PermissionRule.Subject subject = PermissionRule.subjectOf(tool);
        return switch (subject) {
            case COMMAND -> new CallFacts(
                    tool, Optional.of(arguments.path("command").asText("")), List.of(), Optional.empty());
            case PATH -> new CallFacts(
                    tool,
                    Optional.empty(),
                    workspace
                            .map(folder -> paths(given.path("path").asText("."), folder))
                            .orElse(List.of()),
                    Optional.empty());
            case DOMAIN -> new CallFacts(
                    tool,
                    Optional.empty(),
                    List.of(),
                    host(arguments.path("url").asText("")));
            case NONE -> named(tool);
        };
    }

    /** The path as given, normalised, and the path it really leads to, each relative to the workspace root. */
    static List<String> paths(String given, Workspace workspace) {
        List<String> paths = new ArrayList<>();
        Path root = workspace.root().toAbsolutePath().normalize();
        Path resolved;
        try {
            resolved = root.resolve(given.isEmpty() ? "." : given).normalize();
        } catch (InvalidPathException e) {
            return List.of(given);
        }
        paths.add(relative(root, resolved));
        try {
            String real = relative(Workspace.realPathOf(root), Workspace.realPathOf(resolved));
            if (!paths.contains(real)) {
                paths.add(real);
            }
        } catch (IOException e) {
            // Nothing on the path exists yet: the normalised path is all there is.
        }
        return paths;
    }

    private static String relative(Path root, Path path) {
        String relative = root.relativize(path).toString().replace('\\', '/');
        return relative.isEmpty() ? "." : relative;
    }

    /**
     * The host a fetch of {@code url} reaches, read by the parser the fetch itself uses (OkHttp's {@link HttpUrl}):
     * a second parser would read some spellings ({@code https://pastebin.com\\x}, {@code https://a_b.evil.com/})
     * differently or not at all, and a domain rule would miss what the fetch reaches. Empty when that parser finds no
     * http(s) URL, which the fetch refuses too.
     */
    public static Optional<String> host(String url) {
        HttpUrl parsed = HttpUrl.parse(url);
        if (parsed == null || parsed.host().isEmpty()) {
            return Optional.empty();
        }
        String host = parsed.host();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String lower = host.toLowerCase(Locale.ROOT);
        return Optional.of(lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower);
    }
}
