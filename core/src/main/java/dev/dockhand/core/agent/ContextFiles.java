package dev.dockhand.core.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The instructions people keep for the model in the repository: {@code AGENTS.md} (and {@code DOCKHAND.md}) in the
 * workspace and in each parent folder up to the git root, plus the user's own {@code ~/.dockhand/AGENTS.md}. They go
 * into the system prompt outermost first, each under a header naming its path, within a total budget.
 */
public final class ContextFiles {
    public static final int DEFAULT_BUDGET_CHARS = 32_000;
    private static final List<String> NAMES = List.of("AGENTS.md", "DOCKHAND.md");

    /** One file as loaded (possibly cut to the budget). */
    public record Loaded(Path path, String text) {}

    /** Everything loaded, and whether the budget cut something. */
    public record Context(List<Loaded> files, boolean cut) {
        public static final Context EMPTY = new Context(List.of(), false);

        /** The section for the system prompt; empty when there are no files. */
        public String promptSection() {
            if (files.isEmpty()) {
                return "";
            }
            StringBuilder text = new StringBuilder("\n\n# Project instructions\nFollow these instructions from"
                    + " the user and the project (outermost first; later ones are more specific):\n");
            for (Loaded file : files) {
                text.append("\n## ")
                        .append(file.path())
                        .append("\n\n")
                        .append(file.text().strip())
                        .append('\n');
            }
            return text.toString();
        }
    }

    private ContextFiles() {}

    /** Loads the files for a workspace; {@code dockhandHome} holds the user's own AGENTS.md. */
    public static Context load(Path workspace, Path dockhandHome, int budgetChars) {
        List<Path> candidates = new ArrayList<>();
        candidates.add(dockhandHome.resolve("AGENTS.md"));
        for (Path folder : foldersDownToWorkspace(workspace)) {
            for (String name : NAMES) {
                candidates.add(folder.resolve(name));
            }
        }
        List<Loaded> loaded = new ArrayList<>();
        int left = budgetChars;
        boolean cut = false;
        for (Path candidate : candidates) {
            if (!Files.isRegularFile(candidate)) {
                continue;
            }
            String text;
            try {
                text = new String(Files.readAllBytes(candidate), StandardCharsets.UTF_8);
            } catch (IOException unreadable) {
                continue;
            }
            if (left <= 0) {
                cut = true;
                break;
            }
            if (text.length() > left) {
                text = text.substring(0, left) + "\n[… cut: the context files exceed " + budgetChars + " characters]";
                cut = true;
            }
            left -= text.length();
            loaded.add(new Loaded(candidate, text));
        }
        return new Context(List.copyOf(loaded), cut);
    }

    /** The git root (or the workspace itself, outside git) down to the workspace, outermost first. */
    private static List<Path> foldersDownToWorkspace(Path workspace) {
        Deque<Path> folders = new ArrayDeque<>();
        Path folder = workspace.toAbsolutePath().normalize();
        while (folder != null) {
            folders.addFirst(folder);
            if (Files.exists(folder.resolve(".git"))) {
                return List.copyOf(folders);
            }
            folder = folder.getParent();
        }
        return List.of(workspace.toAbsolutePath().normalize());
    }
}
