package dev.dockhand.tools;

import dev.dockhand.core.glob.IgnoreFile;
import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * glob's files through {@code rg --files}, which takes each entry's type from {@code readdir} where the Java walk
 * ({@link WorkspaceWalker}) asks the system for every entry's attributes. The answer must be the walk's, file for
 * file, so ripgrep lists every file it does not ignore and the pattern is matched here, by the same matchers (its own
 * {@code --glob} would override .gitignore and reads some patterns differently); only the files matched are then
 * looked at, each reached from the search folder one name at a time with no link followed, as the walk reaches them.
 * A folder that ripgrep followed after a command swapped it for a link is met there as a link, and its files are left
 * out, as the walk leaves them out.
 *
 * <p>ripgrep's ignore rules differ from {@link IgnoreRules} in places the flags cannot reach; in each, the Java walk
 * answers instead: a {@code .git/info/exclude} with rules (ripgrep would read nested repositories' too, so it reads
 * none), a {@code .rgignore} (ripgrep 13 reads it even with {@code --no-ignore-dot}), a nested repository (ripgrep stops
 * applying the .gitignore files above it), .gitignore files above the workspace (ripgrep reads those of a sub-folder's
 * parents up to the file system's root, unless the workspace is a repository), a search folder named through a
 * link, and, looked for in the folders the list leads through ({@link #ignoreFilesAlike}), a {@code .rgignore} that ignores itself, a
 * {@code .gitignore} that is a link, or one with a rule the two glob syntaxes read otherwise ({@link #rulesReadAlike}).
 *
 * <p>One case is left, as no cheap look finds it: a folder below which ripgrep lists no file and whose ignore file it
 * does not list either (a rule ignores it, or it is a link). Such a {@code .gitignore} with a rule read otherwise or
 * linked from outside, or such a {@code .rgignore}, can make ripgrep's answer lack files the walk lists there, never the
 * reverse ({@code sub/.gitignore} reading {@code {a,b}.txt} and {@code .gitignore}, {@code sub} holding only
 * {@code a.txt}). Finding it would take a second walk of the tree ({@code rg --files -g .gitignore}), about doubling
 * glob's time; docs/performance.md says more.
 */
final class RipgrepFiles {
    /** How the JDK turns a file name's bytes into a string, so a name ripgrep prints reads as the walk reads it. */
    private static final Charset NAMES = Charset.forName(
            System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));

    /**
     * ripgrep's threads for a list: one core fewer than the machine has. Listing is cheap for ripgrep and the list is
     * then read, matched and its files looked at here, on a core of its own; with every core its (ripgrep's default),
     * ripgrep's threads and this reader take turns on the same cores. On the big-repository benchmark's two cores,
     * one thread lists as fast as two with half their CPU, and glob's time fell from about 1.5 to about 1.3 times
     * ripgrep's own {@code rg --files -g}.
     */
    private static final String THREADS =
            Integer.toString(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));

    private RipgrepFiles() {}

    /** The files below {@code start} that {@code matches} accepts; empty when the Java walk must answer. */
    static Optional<List<GlobTool.Match>> find(
            Ripgrep ripgrep, WorkspaceFile start, Predicate<Path> matches, ToolContext context)
            throws IOException, InterruptedException {
        Path folder = start.path();
        if (!listsAlike(folder, context.workspace())
                || !ignoreFilesReadAlike(folder, context.workspace().root())) {
            return Optional.empty();
        }
        List<String> flags = new ArrayList<>(List.of("--files", "--null", "--no-ignore-exclude", "--threads", THREADS));
        if (folder.equals(context.workspace().root())) {
            flags.add("--no-ignore-parent");
        }
        Process process = ripgrep.start(flags, folder, ".");
        List<Path> found = new ArrayList<>();
        try (var ignored = context.cancellation().onCancel(process::destroyForcibly)) {
            boolean alike;
            try (InputStream out = process.getInputStream()) {
                alike = read(out, folder, matches, found);
            }
            // 1 is "no files"; 2 an error (an unreadable folder, say), where the walk is the one to say what it skips.
            if (!alike || process.waitFor() > 1 || context.cancellation().isCancelled()) {
                return Optional.empty();
            }
        } finally {
            // Nothing when it has ended; stops it when its list was left unread.
            process.destroyForcibly();
        }
        return confirm(start, found);
    }

    /**
     * Whether ripgrep, run in {@code folder} with glob's flags, ignores exactly what {@link IgnoreRules} does. Looks
     * only at names, from the folder up: what is below it shows in ripgrep's list or when its files are confirmed.
     */
    private static boolean listsAlike(Path folder, Workspace workspace) throws IOException {
        Path root = workspace.root();
        if (!folder.startsWith(root)
                || !folder.equals(folder.toRealPath())
                || new IgnoreRules(workspace, List.of()).excludesAny()) {
            return false;
        }
        boolean atRoot = folder.equals(root);
        // ripgrep stops at the first repository it meets on the way up; like it, the test follows a link.
        boolean rootIsRepository = Files.exists(root.resolve(".git"));
        for (Path at = folder; at != null; at = at.getParent()) {
            boolean inside = at.startsWith(root);
            if (has(at, ".rgignore")
                    || inside && !at.equals(root) && has(at, ".git")
                    || !inside && !rootIsRepository && has(at, ".gitignore")) {
                return false;
            }
            if (atRoot) {
                // With --no-ignore-parent nothing above the root is read.
                break;
            }
        }
        return true;
    }

    /**
     * Whether the ignore files of the search folder {@code folder} and of its parents up to the root are read alike by
     * ripgrep and {@link IgnoreRules} ({@link #ignoreFilesAlike}); {@link #read} looks at those of every folder on the
     * way to a file ripgrep lists. Every folder the walk reads a rule from that decides about a listed file is among
     * them. ({@code .ignore} files need no look: {@code --no-ignore-dot} keeps ripgrep 13 from reading them.)
     */
    private static boolean ignoreFilesReadAlike(Path folder, Path root) throws IOException {
        for (Path at = folder; at.startsWith(root); at = at.getParent()) {
            if (!ignoreFilesAlike(at)) {
                return false;
            }
            if (at.equals(root)) {
                break;
            }
        }
        return true;
    }

    /**
     * False when {@code folder} holds a {@code .rgignore} (ripgrep reads it, the walk does not; one that ignores
     * itself never shows in ripgrep's list), a {@code .gitignore} that is not a regular file (a link: ripgrep follows
     * it wherever it leads, the walk only within the workspace) or one with a rule the two read differently.
     */
    private static boolean ignoreFilesAlike(Path folder) throws IOException {
        // java.io.File's look follows a link but throws nothing where there is no file, the common case, which
        // Files.exists and readAttributes report by an exception: on a big tree those cost more than ripgrep's run.
        // A link that leads nowhere gives ripgrep no rule, nor the walk.
        if (new File(folder.toFile(), ".rgignore").exists()) {
            return false;
        }
        Path gitignore = folder.resolve(".gitignore");
        if (!gitignore.toFile().exists()) {
            return true;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(gitignore, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException none) {
            return true;
        }
        if (!attributes.isRegularFile()) {
            return false;
        }
        // The walk reads the first MiB of a .gitignore; ripgrep reads it all.
        try (InputStream in = Files.newInputStream(gitignore, LinkOption.NOFOLLOW_LINKS)) {
            byte[] text = in.readNBytes(IgnoreFile.MAX_BYTES + 1);
            return text.length <= IgnoreFile.MAX_BYTES && rulesReadAlike(text);
        } catch (NoSuchFileException gone) {
            return true;
        }
    }

    /**
     * Whether ripgrep's glob syntax and git's read every rule of a .gitignore the same. Found by trying both:
     * braces ({@code {a,b}.txt} is an alternation to ripgrep, a literal name to git), character classes
     * ({@code [[:digit:]]}, which git knows and ripgrep reads as a set of characters), a tab or other white space
     * ending a rule (ripgrep trims it, git keeps it), and a line longer than {@link IgnoreFile#MAX_RULE_LENGTH} (no
     * rule to the walk; counted in bytes, which are never fewer than its characters); backslash escapes, which agreed where tried, are left to the walk
     * too, being rare and many. Trailing spaces, CRLF line ends, {@code **} in its forms and negated or ranged sets
     * were read alike. Comment lines are skipped.
     */
    static boolean rulesReadAlike(byte[] text) {
        int start = 0;
        while (start < text.length) {
            int end = start;
            while (end < text.length && text[end] != '\n') {
                end++;
            }
            int last = end > start && text[end - 1] == '\r' ? end - 2 : end - 1;
            if (last >= start && text[start] != '#') {
                if (last - start >= IgnoreFile.MAX_RULE_LENGTH) {
                    return false;
                }
                byte ending = text[last];
                if (ending == '\t' || ending == 0x0b || ending == '\f' || ending == '\r') {
                    return false;
                }
                for (int i = start; i <= last; i++) {
                    if (text[i] == '{' || text[i] == '\\' || text[i] == '[' && i < last && text[i + 1] == ':') {
                        return false;
                    }
                }
            }
            start = end + 1;
        }
        return true;
    }

    private static boolean has(Path folder, String name) {
        return Files.exists(folder.resolve(name), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Reads ripgrep's list, one path after another each ended by a NUL (so a newline in a name is just a character),
     * and keeps those {@code matches} accepts; false when the list shows a {@code .rgignore} or a name the JDK cannot
     * make a path of, or when a folder on the way to a listed file has ignore files ripgrep reads otherwise
     * ({@link #ignoreFilesAlike}).
     */
    private static boolean read(InputStream out, Path folder, Predicate<Path> matches, List<Path> found)
            throws IOException {
        Set<String> folders = new HashSet<>();
        byte[] buffer = new byte[1 << 16];
        byte[] name = new byte[256];
        int length = 0;
        int read;
        while ((read = out.read(buffer)) > 0) {
            for (int i = 0; i < read; i++) {
                if (buffer[i] != 0) {
                    if (length == name.length) {
                        name = Arrays.copyOf(name, length * 2);
                    }
                    name[length++] = buffer[i];
                    continue;
                }
                // Each path starts with the "./" ripgrep was given.
                int from = length > 2 && name[0] == '.' && name[1] == '/' ? 2 : 0;
                String relative = new String(name, from, length - from, NAMES);
                length = 0;
                if (relative.equals(".rgignore") || relative.endsWith("/.rgignore")) {
                    return false;
                }
                Path path;
                try {
                    path = Path.of(relative);
                } catch (InvalidPathException unreadable) {
                    return false;
                }
                if (matches.test(path)) {
                    found.add(path);
                }
                // The ignore files of the folders on the way to it, each folder once, looked at while ripgrep runs on.
                int slash = relative.lastIndexOf('/');
                while (slash > 0 && folders.add(relative.substring(0, slash))) {
                    if (!ignoreFilesAlike(folder.resolve(relative.substring(0, slash)))) {
                        return false;
                    }
                    slash = relative.lastIndexOf('/', slash - 1);
                }
            }
        }
        return true;
    }

    /**
     * Looks at each file found through the folders that hold it, held open from {@code start} down, one name at a
     * time with no link followed, as the walk does: a file that is no longer there, or no longer a regular file, or
     * behind a link, is left out. Empty when a folder on the way holds a {@code .git} (a nested repository).
     */
    private static Optional<List<GlobTool.Match>> confirm(WorkspaceFile start, List<Path> found) throws IOException {
        // In path order the files of one folder come together, so each folder is opened once.
        found.sort(null);
        List<GlobTool.Match> confirmed = new ArrayList<>();
        List<OpenFolder> open = new ArrayList<>();
        List<String> names = new ArrayList<>();
        open.add(start.openFolder());
        try {
            for (Path file : found) {
                int depth = file.getNameCount() - 1;
                int same = 0;
                while (same < names.size()
                        && same < depth
                        && names.get(same).equals(file.getName(same).toString())) {
                    same++;
                }
                while (names.size() > same) {
                    names.remove(names.size() - 1);
                    open.remove(open.size() - 1).close();
                }
                boolean reached = true;
                for (int i = same; i < depth && reached; i++) {
                    String name = file.getName(i).toString();
                    OpenFolder next;
                    try {
                        next = open.get(open.size() - 1).folder(name);
                    } catch (IOException goneOrLink) {
                        reached = false;
                        continue;
                    }
                    open.add(next);
                    names.add(name);
                    if (next.attributes(".git").isPresent()) {
                        return Optional.empty();
                    }
                }
                Optional<BasicFileAttributes> attributes = reached
                        ? open.get(open.size() - 1)
                                .attributes(file.getFileName().toString())
                        : Optional.empty();
                if (attributes.isPresent() && attributes.get().isRegularFile()) {
                    confirmed.add(new GlobTool.Match(
                            start.path().resolve(file), attributes.get().lastModifiedTime()));
                }
            }
        } finally {
            for (OpenFolder folder : open) {
                folder.close();
            }
        }
        return Optional.of(confirmed);
    }
}
