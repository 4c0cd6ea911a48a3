package dev.dockhand.cli.commands;

import dev.dockhand.core.settings.FrontMatter;
import dev.dockhand.core.settings.FrontMatterException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The custom commands of a run: every {@code *.md} under the project's {@code .dockhand/commands/} and the user's
 * {@code ~/.dockhand/commands/} (the settings home), a file in a subfolder named {@code folder:name}. Read once, when
 * the run starts.
 *
 * <p>A project's files come from whoever wrote the repository, so they are read as untrusted input: a file that links
 * out of the project is not read (it could carry a private file into the prompt), nor one over {@value #MAX_BYTES}
 * bytes, nor more than {@value #MAX_FILES} files, nor folders deeper than {@value #MAX_DEPTH}. A file that cannot be
 * used (unreadable, not UTF-8, bad front matter, a name that is no command name) is skipped with one sentence in
 * {@link #problems}, and so is a command named like a built-in one: a file never replaces {@code /help} or
 * {@code /clear}. When the project and the user have a command of the same name, the user's own wins: a repository
 * cannot take over a command the user relies on.
 */
public final class CustomCommands {
    static final int MAX_BYTES = 64 * 1024;
    static final int MAX_FILES = 500;
    static final int MAX_DEPTH = 4;

    /** One part of a command's name: what can be typed after the slash and completed. */
    private static final Pattern PART = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}_.-]*");

    /** Keys read as written: Claude Code's files write hints like {@code [FILE] [FOCUS]}, which YAML would not. */
    private static final Set<String> VERBATIM = Set.of("argument-hint", "description");

    /** No commands: for a run that has none to look at. */
    public static final CustomCommands NONE = new CustomCommands(Map.of(), List.of());

    private final Map<String, CustomCommand> byName;
    private final List<String> problems;

    private CustomCommands(Map<String, CustomCommand> byName, List<String> problems) {
        this.byName = byName;
        this.problems = List.copyOf(problems);
    }

    /** The project's commands folder in {@code workspace}. */
    public static Path projectFolder(Path workspace) {
        return workspace.resolve(".dockhand").resolve("commands");
    }

    /** The user's commands folder in the settings home. */
    public static Path userFolder(Path settingsHome) {
        return settingsHome.resolve("commands");
    }

    /**
     * Reads both folders. {@code reserved} are the built-in commands' names, which no file may take (compared in
     * lower case, as built-ins are typed in any case).
     */
    public static CustomCommands load(Path workspace, Path settingsHome, Set<String> reserved) {
        List<String> problems = new ArrayList<>();
        Map<String, CustomCommand> user = read(userFolder(settingsHome), CustomCommand.Scope.USER, null, problems);
        // Run in the home folder itself, the project's folder is the user's: read once, as the user's.
        boolean same = realPath(projectFolder(workspace)).equals(realPath(userFolder(settingsHome)));
        Map<String, CustomCommand> project = same
                ? Map.of()
                : read(projectFolder(workspace), CustomCommand.Scope.PROJECT, realPath(workspace), problems);
        Map<String, CustomCommand> all = new TreeMap<>(user);
        project.forEach((name, command) -> {
            CustomCommand mine = user.get(name);
            if (mine != null) {
                problems.add("The project's /" + name + " (" + command.file() + ") is hidden by your own " + mine.file()
                        + ".");
            } else {
                all.put(name, command);
            }
        });
        all.values().removeIf(command -> {
            if (reserved.contains(command.name().toLowerCase(Locale.ROOT))) {
                problems.add(command.file() + " was skipped: /" + command.name()
                        + " is a built-in command, which a file cannot replace; rename the file.");
                return true;
            }
            return false;
        });
        return new CustomCommands(all, problems);
    }

    /** The commands, by name. */
    public List<CustomCommand> all() {
        return List.copyOf(byName.values());
    }

    public Optional<CustomCommand> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** One sentence for each file that was skipped or hidden, for the user. */
    public List<String> problems() {
        return problems;
    }

    /**
     * The commands under {@code folder}. {@code confine}: the real folder a file's real path must lie in (the
     * project's root), or null for the user's own folder, whose links are theirs.
     */
    private static Map<String, CustomCommand> read(
            Path folder, CustomCommand.Scope scope, Path confine, List<String> problems) {
        Map<String, CustomCommand> commands = new TreeMap<>();
        if (!Files.isDirectory(folder)) {
            return commands;
        }
        List<Path> files = new ArrayList<>();
        try {
            Files.walkFileTree(folder, EnumSet.noneOf(FileVisitOption.class), MAX_DEPTH, new Finder(files));
        } catch (IOException e) {
            problems.add(folder + " could not be read (" + e.getMessage() + "); its commands are missing.");
            return commands;
        }
        files.sort(null);
        if (files.size() > MAX_FILES) {
            problems.add(folder + " holds more than " + MAX_FILES + " command files; only the first " + MAX_FILES
                    + " were read.");
            files = files.subList(0, MAX_FILES);
        }
        for (Path file : files) {
            String name = nameOf(folder.relativize(file));
            // A project's file is named as the repository names it; the user's by where it is.
            Path shown =
                    confine == null ? file : Path.of(".dockhand", "commands").resolve(folder.relativize(file));
            if (name == null) {
                problems.add(shown + " was skipped: its name is no command name (use letters, digits, '-', '_' and"
                        + " '.').");
                continue;
            }
            try {
                commands.put(name, command(name, scope, file, shown, confine));
            } catch (Unusable e) {
                problems.add(shown + " was skipped: " + e.getMessage() + ".");
            }
        }
        return commands;
    }

    /** {@code git/commit.md} is {@code git:commit}; null when a part cannot be typed as a command. */
    private static String nameOf(Path relative) {
        List<String> parts = new ArrayList<>();
        for (Path part : relative) {
            parts.add(part.toString());
        }
        String last = parts.remove(parts.size() - 1);
        parts.add(last.substring(0, last.length() - ".md".length()));
        for (String part : parts) {
            if (!PART.matcher(part).matches()) {
                return null;
            }
        }
        return String.join(":", parts);
    }

    private static CustomCommand command(String name, CustomCommand.Scope scope, Path file, Path shown, Path confine)
            throws Unusable {
        FrontMatter parsed;
        try {
            parsed = FrontMatter.parse(text(file, confine), VERBATIM);
        } catch (FrontMatterException e) {
            throw new Unusable(e.getMessage());
        }
        try {
            return new CustomCommand(
                    name,
                    scope,
                    shown,
                    parsed.text("description").orElse(""),
                    parsed.text("argument-hint").orElse(""),
                    parsed.list("allowed-tools"),
                    parsed.text("model"),
                    parsed.body());
        } catch (FrontMatterException e) {
            throw new Unusable(e.getMessage());
        }
    }

    private static String text(Path file, Path confine) throws Unusable {
        try {
            Path real = file.toRealPath();
            if (confine != null && !real.startsWith(confine)) {
                throw new Unusable("it is a link to " + real + ", outside the project");
            }
            if (!Files.isRegularFile(real)) {
                throw new Unusable("it is not a regular file");
            }
            if (Files.size(real) > MAX_BYTES) {
                throw new Unusable("it is larger than " + MAX_BYTES / 1024 + " KiB");
            }
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(Files.readAllBytes(real)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Unusable("it is not UTF-8 text");
        } catch (IOException e) {
            throw new Unusable("it cannot be read (" + e.getMessage() + ")");
        }
    }

    private static Path realPath(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder.toAbsolutePath().normalize();
        }
    }

    /** Collects the {@code *.md} files, skipping hidden files and folders; links are listed, not followed. */
    private static final class Finder extends SimpleFileVisitor<Path> {
        private final List<Path> files;
        private Path root;

        Finder(List<Path> files) {
            this.files = files;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) {
            if (root == null) {
                root = folder;
                return FileVisitResult.CONTINUE;
            }
            return hidden(folder) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = file.getFileName().toString();
            if (!hidden(file) && name.endsWith(".md") && !attributes.isDirectory()) {
                files.add(file);
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            // An unreadable entry is skipped like a hidden one; the rest of the folder still counts.
            return FileVisitResult.CONTINUE;
        }

        private static boolean hidden(Path path) {
            return path.getFileName().toString().startsWith(".");
        }
    }

    /** Why one file is no command, to follow its name. */
    private static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String reason) {
            super(reason);
        }
    }
}
