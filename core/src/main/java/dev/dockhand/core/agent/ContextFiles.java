package dev.dockhand.core.agent;

import dev.dockhand.core.Utf16;
import dev.dockhand.core.redaction.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The instructions people keep for the model in the repository: {@code AGENTS.md} (and {@code DOCKHAND.md}) in the
 * workspace and in each parent folder up to the git root, plus the user's own {@code ~/.dockhand/AGENTS.md}. They go
 * into the system prompt outermost first, each under a header naming its path, within a total budget.
 *
 * <p>A cloned repository's files are untrusted input that goes to the provider with every request: a project file is
 * read only when it is a regular file whose real path lies inside the folder it is found in (the workspace, or the
 * folder above it that holds it), so an {@code AGENTS.md} linked to {@code ~/.aws/credentials} or
 * {@code /proc/self/environ} is skipped and said; no more than the budget's worth of bytes is read; and the text passes the session's secret
 * redaction like any tool output. The user's own file may be a link anywhere (a dotfiles repository).
 */
public final class ContextFiles {
    public static final int DEFAULT_BUDGET_CHARS = 32_000;
    private static final List<String> NAMES = List.of("AGENTS.md", "DOCKHAND.md");

    /** One file as loaded (possibly cut to the budget). */
    public record Loaded(Path path, String text) {}

    /**
     * Everything loaded, whether the budget cut something, and the files left out, each with why in words for the user.
     */
    public record Context(List<Loaded> files, boolean cut, List<String> skipped) {
        public static final Context EMPTY = new Context(List.of(), false, List.of());

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

    /** Loads the files for a workspace; {@code dockhandHome} holds the user's own AGENTS.md. No redaction. */
    public static Context load(Path workspace, Path dockhandHome, int budgetChars) {
        return load(workspace, dockhandHome, budgetChars, Redactor.OFF);
    }

    /**
     * Loads the files for a workspace, each file's text passed through {@code redactor}; {@code dockhandHome} holds the
     * user's own AGENTS.md.
     */
    public static Context load(Path workspace, Path dockhandHome, int budgetChars, Redactor redactor) {
        List<Path> folders = foldersDownToWorkspace(workspace);
        List<Path> candidates = new ArrayList<>();
        // Where each candidate's real path must lie; null for the user's own file.
        List<Path> confines = new ArrayList<>();
        candidates.add(dockhandHome.resolve("AGENTS.md"));
        confines.add(null);
        for (Path folder : folders) {
            for (String name : NAMES) {
                candidates.add(folder.resolve(name));
                // Each file is confined to the folder it is found in, not to the git root: the nearest .git above a
                // downloaded project (or above the project a workspace is a subfolder of) may be far up, a dotfiles
                // repository in the home folder, and the files a download brings are the project's, not the user's.
                confines.add(realOrSelf(folder));
            }
        }
        List<Loaded> loaded = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int left = budgetChars;
        boolean cut = false;
        for (int i = 0; i < candidates.size(); i++) {
            Path candidate = candidates.get(i);
            if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String text;
            try {
                text = read(candidate, confines.get(i), budgetChars);
            } catch (Skipped reason) {
                skipped.add(candidate + " was not read: " + reason.getMessage() + ".");
                continue;
            }
            if (left <= 0) {
                cut = true;
                break;
            }
            text = redactor.redact(text).text();
            if (text.length() > left) {
                text = Utf16.head(text, left) + "\n[… cut: the context files exceed " + budgetChars + " characters]";
                cut = true;
            }
            left -= text.length();
            loaded.add(new Loaded(candidate, text));
        }
        return new Context(List.copyOf(loaded), cut, List.copyOf(skipped));
    }

    /** Why a file present was not read, in words for the user. */
    private static final class Skipped extends Exception {
        private static final long serialVersionUID = 1L;

        Skipped(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * The file's text, read through its real path, at most {@code budgetChars} characters' worth of bytes (a character
     * is at most three UTF-8 bytes, or four for a pair); {@code confine}, when not null, is the folder its real path
     * must lie in.
     */
    private static String read(Path file, Path confine, int budgetChars) throws Skipped {
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            throw new Skipped("it is a link to nothing that can be read");
        }
        if (confine != null && !real.startsWith(confine)) {
            throw new Skipped("it is a link to " + real + ", outside the project");
        }
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
            throw new Skipped("it is not a regular file");
        }
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            return new String(in.readNBytes(Math.max(0, budgetChars) * 4 + 4), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Skipped("it cannot be read (" + e.getMessage() + ")");
        }
    }

    private static Path realOrSelf(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder;
        }
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
