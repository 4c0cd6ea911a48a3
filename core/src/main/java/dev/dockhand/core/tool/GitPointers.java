package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The places outside a git folder that git runs or reads as if they were inside it: the folder
 * {@code core.hooksPath} names (a common set-up keeps hooks in a tracked {@code .githooks}), the files
 * {@code include.path} and {@code includeIf.*.path} name, and where hooks that are symbolic links lead; and the git
 * folders a {@code .git} file's {@code gitdir:} line and a git folder's {@code commondir} send git to. A model that can
 * write one of them plants code that runs at the user's next commit as surely as through {@code .git/hooks}, so they
 * are protected like it. Only places inside {@code root} count: the rest is outside the workspace anyway.
 *
 * <p>Paths are worked out as git's own open would find them: name by name, a {@code ..} going up from where a link
 * led, and a missing name ending the walk ({@code hooksPath = missing/..} is {@code missing}, the folder a command
 * would have to make, not the work tree). Files are only read, never run, and read in bounded pieces.
 */
final class GitPointers {
    /** Most include files one inside the other, as git allows. */
    static final int MAX_INCLUDE_DEPTH = 10;

    /** Most bytes of a {@code .git} file or a {@code commondir} that are read: a path is never longer. */
    private static final int POINTER_BYTES = 4096;

    /**
     * Most settings naming places taken from one config file: a file of thousands of {@code hooksPath} lines, which a
     * command can write, would otherwise slow every write check.
     */
    static final int MAX_SETTINGS = 1000;

    /** Config files larger than this are passed over. */
    private static final int CONFIG_BYTES = 1 << 20;

    private GitPointers() {}

    /**
     * What a repository points git at inside its root: the places to protect, and, one sentence each, those left out
     * because they hold the repository (protected, every file in the work tree would need the user's yes).
     */
    record Found(List<Path> places, List<String> warnings) {}

    /**
     * The places the repository whose git folder is {@code gitFolder} (its work tree {@code workTree}) points git at,
     * inside {@code root}: from its config (in its common folder, when a {@code commondir} names one), its
     * {@code config.worktree}, the files these include, the user's own config files, and its hooks that are links.
     */
    static Found of(Path gitFolder, Path workTree, Path root, UserGitConfig user) {
        Path common = common(gitFolder).orElse(gitFolder);
        Reader reader = new Reader(gitFolder, common, workTree, root, user);
        reader.read(common.resolve("config"), false, 0);
        reader.read(gitFolder.resolve("config.worktree"), false, 0);
        for (Path file : user.files()) {
            reader.read(file, !file.startsWith(root), 0);
            // The user's own config kept in the workspace (a dotfiles repository, ~/.gitconfig linked into it): what
            // a command writes there runs in every repository of theirs.
            ProtectedLayout.realPath(file).ifPresent(real -> reader.point(real, "your git config"));
        }
        reader.hookLinks(gitFolder.resolve("hooks"));
        if (!common.equals(gitFolder)) {
            reader.hookLinks(common.resolve("hooks"));
        }
        return new Found(List.copyOf(reader.places), List.copyOf(reader.warnings));
    }

    /**
     * The git folders the {@code .git} entry {@code entry} sends git to, each an existing folder: the folder it is, the
     * folder it leads to (a link) or the folder its {@code gitdir:} line names (a file), and the common folder that
     * one's {@code commondir} names, if any. Empty when it sends git nowhere that exists.
     */
    static List<Path> folders(Path entry) {
        Optional<Path> git;
        if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            git = Optional.of(entry);
        } else if (Files.isSymbolicLink(entry)) {
            git = ProtectedLayout.realPath(entry);
        } else {
            git = gitdir(entry);
        }
        if (git.isEmpty() || !Files.isDirectory(git.get())) {
            return List.of();
        }
        List<Path> folders = new ArrayList<>(List.of(git.get()));
        common(git.get()).filter(found -> !found.equals(git.get())).ifPresent(folders::add);
        return folders;
    }

    /**
     * The folder a {@code .git} file's {@code gitdir:} line names, relative to the file's folder, as git reads it: the
     * whole file starts with {@code gitdir: }, and the path runs to its end less the line breaks there. Empty when it
     * is no regular file, does not start so, or is longer than a path can be.
     */
    static Optional<Path> gitdir(Path file) {
        return pointer(file)
                .filter(text -> text.startsWith("gitdir: "))
                .flatMap(text -> kernelPath(file.getParent().resolve(text.substring("gitdir: ".length()))));
    }

    /**
     * The folder the {@code commondir} file of {@code gitFolder} names (relative to {@code gitFolder}), where git then
     * takes the repository's config and hooks from; empty without one.
     */
    static Optional<Path> common(Path gitFolder) {
        return pointer(gitFolder.resolve("commondir"))
                .filter(text -> !text.isEmpty())
                .flatMap(text -> kernelPath(gitFolder.resolve(text)))
                .filter(Files::isDirectory);
    }

    /** A pointer file's text less the line breaks at its end; empty when it is no regular file or too long. */
    private static Optional<String> pointer(Path file) {
        Optional<byte[]> bytes = SmallFile.read(file, POINTER_BYTES, LinkOption.NOFOLLOW_LINKS);
        if (bytes.isEmpty() || bytes.get().length > POINTER_BYTES) {
            return Optional.empty();
        }
        String text = new String(bytes.get(), StandardCharsets.UTF_8);
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return Optional.of(text.substring(0, end));
    }

    /**
     * Where {@code path} leads as the kernel would open it: the path with its {@code .} and {@code ..} taken out when
     * that leads to the same place (so the links on the way stay in it, to be kept), else the place itself (see
     * {@link KernelPaths#target}).
     */
    private static Optional<Path> kernelPath(Path path) {
        Path lexical = path.normalize();
        boolean up = false;
        for (Path name : path) {
            up |= name.toString().equals("..");
        }
        if (!up) {
            return Optional.of(lexical);
        }
        Optional<Path> kernel = KernelPaths.target(path);
        return kernel.isEmpty() || kernel.equals(KernelPaths.target(lexical)) ? Optional.of(lexical) : kernel;
    }

    /** One repository's config files read one after the other, and what they point git at. */
    private static final class Reader {
        private final Path gitFolder;
        private final Path common;
        private final Path workTree;
        private final Path root;
        private final UserGitConfig user;
        private final Set<Path> places = new LinkedHashSet<>();
        private final Set<String> warnings = new LinkedHashSet<>();
        private final Set<Path> read = new HashSet<>();

        Reader(Path gitFolder, Path common, Path workTree, Path root, UserGitConfig user) {
            this.gitFolder = gitFolder;
            this.common = common;
            this.workTree = workTree;
            this.root = root;
            this.user = user;
        }

        /**
         * The settings of {@code file} that name places, and those of the files it includes, {@code depth} includes
         * down. An include is followed when it lands inside the root, or when the file naming it is the user's own
         * ({@code own}: outside the workspace, reached from the user's config), never to elsewhere from a
         * workspace's file.
         */
        void read(Path file, boolean own, int depth) {
            if (depth > MAX_INCLUDE_DEPTH || !read.add(file)) {
                return;
            }
            List<Setting> settings = settings(file);
            if (settings.size() > MAX_SETTINGS) {
                warnings.add(shown(file) + " names more than " + MAX_SETTINGS + " hook folders and included files;"
                        + " only the first " + MAX_SETTINGS + " are protected.");
                settings = settings.subList(0, MAX_SETTINGS);
            }
            for (Setting setting : settings) {
                String shown = setting.key() + " in " + shown(file);
                if (setting.key().equals("core.hooksPath")) {
                    resolve(workTree, setting.value()).ifPresent(place -> point(place, shown));
                    continue;
                }
                Optional<Path> included = resolve(file.getParent(), setting.value());
                if (included.isEmpty()) {
                    continue;
                }
                boolean inside = included.get().startsWith(root);
                if (inside) {
                    point(included.get(), shown);
                }
                if (inside || own) {
                    ProtectedLayout.realPath(included.get())
                            .ifPresent(real -> read(real, own && !real.startsWith(root), depth + 1));
                }
            }
        }

        /** Where the hooks in {@code hooks} that are links lead. */
        void hookLinks(Path hooks) {
            if (!Files.isDirectory(hooks, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            try (Stream<Path> entries = Files.list(hooks)) {
                entries.filter(Files::isSymbolicLink).sorted().forEach(link -> {
                    try {
                        kernelPath(link.getParent().resolve(Files.readSymbolicLink(link)))
                                .ifPresent(place -> point(place, "the hook " + shown(link)));
                    } catch (IOException | RuntimeException e) {
                        // Gone since it was listed: it leads nowhere.
                    }
                });
            } catch (IOException | RuntimeException e) {
                // An unreadable hooks folder points nowhere we can see.
            }
        }

        /**
         * A place git is pointed at by {@code what}: protected when it lies inside the root, unless it is the root or
         * holds the repository's work tree or git folder ({@code hooksPath = .}), which would make every file there
         * need the user's yes: that is said instead, and only the file naming it is protected.
         */
        private void point(Path place, String what) {
            if (!place.startsWith(root)) {
                return;
            }
            if (place.equals(root)
                    || workTree.startsWith(place)
                    || gitFolder.startsWith(place)
                    || common.startsWith(place)) {
                warnings.add(what + " names " + folder(place) + ", a folder that holds the repository at "
                        + folder(workTree) + ": it is not protected, or every file in it would need your yes.");
            } else {
                places.add(place);
            }
        }

        /**
         * A config value as a path: relative ones from {@code base}, {@code ~/} from the user's home; empty for
         * another user's {@code ~name/} and what is no path.
         */
        private Optional<Path> resolve(Path base, String value) {
            try {
                if (value.isEmpty()) {
                    return Optional.empty();
                }
                if (value.startsWith("~")) {
                    return value.startsWith("~/")
                            ? user.home().flatMap(home -> kernelPath(home.resolve(value.substring(2))))
                            : Optional.empty();
                }
                return kernelPath(base.resolve(value));
            } catch (InvalidPathException e) {
                return Optional.empty();
            }
        }

        private String shown(Path path) {
            return path.startsWith(root) ? ProtectedPaths.relative(root, path) : path.toString();
        }

        private String folder(Path path) {
            return path.equals(root) ? "the top of the workspace" : shown(path);
        }
    }

    /** One setting of a git config file that names a place: its key as git spells it, and its value. */
    private record Setting(String key, String value) {}

    /**
     * The settings that name places, read the way git's config format allows: {@code [section]} and
     * {@code [section "subsection"]} headers (with settings after them on the same line), {@code key = value} lines,
     * comments after {@code #} or {@code ;}, and values in double quotes. Enough for the keys read here
     * ({@code core.hooksPath}, {@code include.path} and every {@code includeIf.*.path}, whatever its condition); a line
     * it cannot read is passed over.
     */
    private static List<Setting> settings(Path config) {
        Optional<byte[]> bytes = SmallFile.read(config, CONFIG_BYTES);
        if (bytes.isEmpty() || bytes.get().length > CONFIG_BYTES) {
            return List.of();
        }
        // As git reads it: bytes that are no UTF-8 (a Latin-1 name) spoil only themselves, and a byte-order mark
        // before the first section is no part of it.
        String text = new String(bytes.get(), StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        List<String> lines = text.lines().toList();
        List<Setting> settings = new ArrayList<>();
        String section = "";
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("[")) {
                int end = line.indexOf(']');
                String header = end < 0 ? "" : line.substring(1, end).strip();
                int space = header.indexOf(' ');
                section = (space < 0 ? header : header.substring(0, space)).toLowerCase(Locale.ROOT);
                line = end < 0 ? "" : line.substring(end + 1).strip();
            }
            int equals = line.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String key = section + "." + line.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            String value = value(line.substring(equals + 1));
            if (key.equals("core.hookspath")) {
                settings.add(new Setting("core.hooksPath", value));
            } else if (key.equals("include.path") || key.equals("includeif.path")) {
                settings.add(new Setting(key.equals("include.path") ? "include.path" : "includeIf.path", value));
            }
        }
        return settings;
    }

    private static String value(String text) {
        String value = text.strip();
        if (value.startsWith("\"")) {
            int end = value.indexOf('"', 1);
            return end < 0 ? value.substring(1) : value.substring(1, end);
        }
        for (char comment : new char[] {'#', ';'}) {
            int at = value.indexOf(comment);
            if (at >= 0) {
                value = value.substring(0, at).strip();
            }
        }
        return value;
    }
}
