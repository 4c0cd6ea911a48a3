package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Where a workspace's protected paths are on disk, found by one walk: what the Docker sandbox mounts read-only, the
 * git folders it pins in place (a mount point cannot be renamed or removed, so {@code mv .git .old} and a fresh
 * {@code .git} cannot swap the protection out), the protected folders missing at the top that it mounts empty
 * placeholders on (creating one there is the attack), and allowed paths under a read-only folder that stay
 * writable. It also fingerprints them, so a command that changed one anyway (without a sandbox) is reported.
 *
 * <p>The walk does not follow links, does not enter a git folder beyond what it protects, and stops after
 * {@link #MAX_FOLDERS} folders (a repository nested deeper than that in a huge tree is left to the file tools'
 * approval and the fingerprint of what was found), which it says in a warning. Each look into a git folder's {@code modules} (see {@link #absent})
 * stops there too, and says so.
 */
public final class ProtectedLayout {
    /** Most folders one scan visits. */
    static final int MAX_FOLDERS = 200_000;

    private final Path root;
    private final List<Path> readOnly;
    private final List<Path> pinned;
    private final List<Path> above;
    private final List<Path> missing;
    private final List<Path> absent;
    private final List<Path> writable;
    private final List<Link> links;
    private final List<String> warnings;
    private final ProtectedPaths rules;
    private final List<GitModules> gitModules;
    private final List<Path> gitFolders;
    private final int maxFolders;
    /** The {@code modules} folders whose look stopped short, each logged once while it does. */
    private final Set<Path> uncheckedLogged = ConcurrentHashMap.newKeySet();

    private ProtectedLayout(Path root, Scan scan) {
        this.root = root;
        this.readOnly = List.copyOf(scan.readOnly);
        this.pinned = List.copyOf(scan.pinned);
        this.above = List.copyOf(scan.above);
        this.missing = List.copyOf(scan.missing);
        this.absent = List.copyOf(scan.absent);
        this.writable = List.copyOf(scan.writable);
        this.links = List.copyOf(scan.links.values());
        this.warnings = List.copyOf(scan.warnings);
        this.rules = scan.rules;
        this.gitModules = List.copyOf(scan.gitModules);
        this.gitFolders = List.copyOf(scan.elsewhere);
        this.maxFolders = scan.maxFolders;
    }

    /** The rules this layout was scanned by, which judge by name a path the scan did not find. */
    public ProtectedPaths rules() {
        return rules;
    }

    /**
     * Existing protected paths, each to be made read-only: as named, and, where a link leads one elsewhere inside the
     * workspace, the real path it leads to as well. Only those that are their own real path can be mounted (a mount
     * follows links on the host); the others are kept by {@link #links}.
     */
    public List<Path> readOnly() {
        return readOnly;
    }

    /**
     * The git folders that hold protected paths, and the folders from the root down to each, to be pinned in place (a
     * mount point cannot be renamed or removed).
     */
    public List<Path> pinned() {
        return pinned;
    }

    /**
     * Every other real folder between a root and a protected path, to be pinned in place too: Linux lets a command
     * rename a mount point's parent, so {@code mv scripts scripts2} would carry a read-only {@code scripts/pre-commit}
     * away and leave a fresh, writable {@code scripts} in its place. A folder above that is a link cannot be pinned;
     * the link is kept instead (see {@link #links}). Only mounts need them: a transport that copies files back judges
     * each path by its name, whichever folder it came from.
     */
    public List<Path> above() {
        return above;
    }

    /**
     * The links on the way to a protected path (the path itself, or a folder above it), as they were at the scan:
     * what they read, and where they lead when that lies inside the workspace: their real path, or, for a link that
     * leads nowhere yet, the path a command would create to give it a target. Empty when it leads out, and for a
     * protected link that leads to a folder holding it (see {@link #warnings}). A link cannot be mounted, so a command
     * could replace it; it is put back instead.
     */
    public List<Link> links() {
        return links;
    }

    /** A link on the way to a protected path: where it is, what it reads, and where it leads inside the workspace. */
    public record Link(Path path, Path text, Optional<Path> real) {}

    /**
     * What the user should know about the protection, one sentence each: a protected link that leads to a folder
     * holding it ({@code .vscode -> .}) protects the link alone, not that folder, which would make every file in it
     * need the user's yes.
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Protected folders that do not exist yet, whose creation must be kept out too: an empty folder in their place
     * does no harm (git skips an empty {@code .git} and looks further up). Among them the folder a dangling link of a
     * protected folder would lead to ({@code cfg} for {@code .vscode -> cfg}): what the user approves writing there
     * stays, and no command can write there.
     */
    public List<Path> missing() {
        return missing;
    }

    /**
     * Protected paths that do not exist and must stay so, where an empty folder would break git (a git folder's
     * {@code commondir}, or a place its config names): a command that creates one has it removed. None is one of
     * {@link #missing}, kept out by its empty placeholder instead. Looked up anew at each call, they include what has
     * appeared in a git folder's {@code modules} since the scan: a submodule's hooks folder and config (a folder
     * prepared there is the one {@code git submodule update} takes, hooks and all, on the host), and any link (git
     * makes none there; the host's git would follow it to hooks anywhere). A {@code modules} folder that cannot be
     * looked at whole (it holds more than {@link #MAX_FOLDERS} folders, a folder in it cannot be read) is {@link
     * Absent#unchecked}, never taken as holding nothing more than what was found, and logged.
     */
    public Absent absent() {
        List<Path> now = new ArrayList<>(absent);
        List<Unchecked> unchecked = new ArrayList<>();
        for (GitModules modules : gitModules) {
            GitModules.Look look = modules.appeared(rules, readOnly, maxFolders);
            now.addAll(look.paths());
            Path folder = modules.git().resolve("modules");
            if (look.unchecked().isPresent()) {
                String why = "could not be checked: " + look.unchecked().get()
                        + "; look at it before running git submodule commands";
                unchecked.add(new Unchecked(folder, why));
                if (uncheckedLogged.add(folder)) {
                    LoggerFactory.getLogger(ProtectedLayout.class)
                            .error("{} {}: a submodule's hooks or config prepared there may be missed", folder, why);
                }
            } else {
                uncheckedLogged.remove(folder);
            }
        }
        return new Absent(List.copyOf(now), List.copyOf(unchecked));
    }

    /**
     * What must stay absent now ({@code paths}), and the folders that could not be looked at for it ({@code
     * unchecked}): what may have appeared in those is not among {@code paths}, so they must be reported (and not copied
     * back by a transport that copies files).
     */
    public record Absent(List<Path> paths, List<Unchecked> unchecked) {}

    /**
     * A folder that could not be looked at for what must stay absent, and why, as the user reads it after its name
     * ({@code could not be checked: it holds more than 200,000 folders; look at it before running git submodule
     * commands}).
     */
    public record Unchecked(Path path, String why) {}

    /** Allowed paths that lie under a read-only path and must stay writable. */
    public List<Path> writable() {
        return writable;
    }

    /**
     * The git folders inside the workspace that git finds under another name: where a {@code .git} link leads, what a
     * {@code .git} file's {@code gitdir:} line names ({@code .bare} for {@code gitdir: ./.bare}), and a common folder a
     * {@code commondir} names. Their hooks and config are protected as those of a {@code .git} folder; a transport that
     * copies files back keeps the rest of them as it keeps the rest of a {@code .git} folder.
     */
    public List<Path> gitFolders() {
        return gitFolders;
    }

    /**
     * The layouts of {@code roots}, scanned at the first call and kept: the Docker sandbox needs them when its
     * container starts, and the check after each command without a sandbox needs them too. A root that cannot be
     * scanned has an empty layout, and the failure is logged.
     */
    public static Supplier<List<ProtectedLayout>> lazily(List<Path> roots, ProtectedPaths rules) {
        return lazily(roots, rules, warning -> LoggerFactory.getLogger(ProtectedLayout.class)
                .warn(warning));
    }

    /**
     * The layouts of {@code roots}, as {@link #lazily(List, ProtectedPaths)} scans them, each of their
     * {@link #warnings} told to {@code warnings} once, when the scan is done (before anyone is handed the layouts).
     */
    public static Supplier<List<ProtectedLayout>> lazily(
            List<Path> roots, ProtectedPaths rules, Consumer<String> warnings) {
        return new Supplier<>() {
            private List<ProtectedLayout> layouts;

            @Override
            public synchronized List<ProtectedLayout> get() {
                if (layouts == null) {
                    List<ProtectedLayout> scanned = new ArrayList<>();
                    for (Path root : roots) {
                        try {
                            scanned.add(scan(root, roots, rules));
                        } catch (IOException | RuntimeException e) {
                            LoggerFactory.getLogger(ProtectedLayout.class)
                                    .error("could not scan {} for protected paths", root, e);
                            warnings.accept("could not look through " + root + " for protected paths (" + e
                                    + "): its git hooks and config and the other protected paths are not kept"
                                    + " read-only in the sandbox this session.");
                            scanned.add(new ProtectedLayout(root, new Scan(root, rules)));
                        }
                    }
                    layouts = List.copyOf(scanned);
                    layouts.forEach(layout -> layout.warnings().forEach(warnings));
                }
                return layouts;
            }
        };
    }

    /** The root this layout was scanned from. */
    public Path root() {
        return root;
    }

    /** Scans {@code root} (a real path) for the paths {@code rules} protect. */
    public static ProtectedLayout scan(Path root, ProtectedPaths rules) throws IOException {
        return scan(root, List.of(root), rules);
    }

    /**
     * Scans {@code root} for the paths {@code rules} protect; a link there that leads into another of the workspace's
     * {@code roots} (all real paths) protects where it leads too.
     */
    public static ProtectedLayout scan(Path root, List<Path> roots, ProtectedPaths rules) throws IOException {
        return scan(root, roots, rules, MAX_FOLDERS);
    }

    /**
     * Scans {@code root} for the paths {@code rules} protect, as {@link #scan(Path, List, ProtectedPaths)} does; the
     * scan, and each look into a {@code modules} folder after it, counts at most {@code maxFolders} folders (rather
     * than {@link #MAX_FOLDERS}: for tests).
     */
    public static ProtectedLayout scan(Path root, List<Path> roots, ProtectedPaths rules, int maxFolders)
            throws IOException {
        Scan scan = new Scan(root, roots, rules, maxFolders);
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, scan);
        for (String folder : ProtectedPaths.FOLDERS) {
            scan.ifMissing(root.resolve(folder));
        }
        Path git = root.resolve(".git");
        if (!Files.isDirectory(git, LinkOption.NOFOLLOW_LINKS)) {
            // No repository here yet: one made in the sandbox would be git's for this folder on the host.
            scan.ifMissing(git);
        }
        // A missing folder the config names too (core.hooksPath = .husky) gets an empty placeholder, like any other:
        // removing it would remove the placeholder, and what the user put in it.
        scan.absent.removeAll(scan.missing);
        for (String entry : rules.added()) {
            scan.protect(root.resolve(entry));
        }
        for (String entry : rules.allowed()) {
            Path allowed = root.resolve(entry);
            // Only a real path: mounted writable, a link would bring in what it leads to on the host.
            if (allowed.equals(realPath(allowed).orElse(null))
                    && scan.readOnly.stream().anyMatch(path -> allowed.startsWith(path) && !allowed.equals(path))) {
                scan.writable.add(allowed);
            }
        }
        scan.pinFoldersAbove();
        ProtectedLayout layout = new ProtectedLayout(root, scan);
        List<ProtectedPaths.Redirect> redirects = new ArrayList<>();
        for (Link link : layout.links) {
            link.real()
                    .ifPresent(real -> redirects.add(
                            new ProtectedPaths.Redirect(link.path(), real, "the link " + scan.relative(link.path()))));
        }
        redirects.addAll(scan.redirects);
        rules.remember(root, redirects);
        return layout;
    }

    /** The real path of {@code path}, its links resolved; empty when it does not exist or a link on it dangles. */
    public static Optional<Path> realPath(Path path) {
        try {
            return Optional.of(path.toRealPath());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The walk: each git folder and protected folder it meets, recorded and not entered further. */
    private static final class Scan extends SimpleFileVisitor<Path> {
        private final Path root;
        private final List<Path> roots;
        private final ProtectedPaths rules;
        private final List<Path> readOnly = new ArrayList<>();
        private final List<Path> pinned = new ArrayList<>();
        private final List<Path> above = new ArrayList<>();
        private final List<Path> missing = new ArrayList<>();
        private final List<Path> absent = new ArrayList<>();
        private final List<Path> writable = new ArrayList<>();
        private final Map<Path, Link> links = new LinkedHashMap<>();
        private final List<String> warnings = new ArrayList<>();
        private final List<GitModules> gitModules = new ArrayList<>();
        private final List<Path> elsewhere = new ArrayList<>();
        private final List<ProtectedPaths.Redirect> redirects = new ArrayList<>();
        private final Set<Path> gitFolders = new HashSet<>();
        private final int maxFolders;
        private int folders;

        Scan(Path root, ProtectedPaths rules) {
            this(root, List.of(root), rules, MAX_FOLDERS);
        }

        Scan(Path root, List<Path> roots, ProtectedPaths rules, int maxFolders) {
            this.root = root;
            this.roots = roots.contains(root) ? List.copyOf(roots) : List.of(root);
            this.rules = rules;
            this.maxFolders = maxFolders;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
            if (++folders > maxFolders) {
                // Which folders are left is up to the order the file system lists them in, so the user must know.
                warnings.add(String.format(
                        Locale.ROOT,
                        "stopped looking through %s for protected paths after %,d folders: a git repository or"
                                + " settings folder further in is not protected this session (neither read-only in"
                                + " the sandbox nor watched without one); start Dockhand in a smaller folder.",
                        root,
                        maxFolders));
                return FileVisitResult.TERMINATE;
            }
            // Without case, as ProtectedPaths compares: on a case-insensitive file system .Git is git's folder.
            String name = dir.equals(root) ? "" : dir.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.equals(".git")) {
                pinRepository(dir);
                gitFolder(dir, dir);
                return FileVisitResult.SKIP_SUBTREE;
            }
            if (ProtectedPaths.FOLDERS.contains(name)) {
                protect(dir);
                return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.equals(".git") && attributes.isSymbolicLink()) {
                gitLink(file);
            } else if (name.equals(".git") && attributes.isRegularFile()) {
                gitFile(file);
            } else if (ProtectedPaths.HOOK_MANAGER_FILES.contains(name)
                    || ProtectedPaths.TOOL_FILES.contains(name)
                    || (attributes.isSymbolicLink() && ProtectedPaths.FOLDERS.contains(name))) {
                // A protected folder's name on a link is met here, since the walk does not follow links.
                protect(file);
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
        }

        /**
         * A git folder, and every folder from its root down to its work tree, mounted onto themselves: a mount point
         * cannot be renamed, so neither the git folder nor the folders above it can be moved away and replaced by a
         * writable copy.
         */
        private void pinRepository(Path git) {
            Path top = rootOf(git);
            for (Path folder = git; folder != null && !folder.equals(top); folder = folder.getParent()) {
                if (!pinned.contains(folder)) {
                    pinned.add(folder);
                }
            }
        }

        /**
         * A {@code .git} link: git on the host follows it to the folder it leads to, whose hooks and config are then
         * protected as if they were at the link's place; the link itself is kept. A link that leads out of the
         * workspace leads where no command in the sandbox can write.
         */
        private void gitLink(Path link) throws IOException {
            if (rules.check(relative(link)).isEmpty()) {
                return;
            }
            addOnce(readOnly, link);
            linksAlong(link);
            Optional<Path> real = realPath(link);
            if (real.isPresent()) {
                // Recorded among the links: the file tools follow it there.
                elsewhere(link, real.get(), Optional.empty());
            }
        }

        /**
         * A {@code .git} file, protected whole: it points git at another folder (submodules, linked worktrees, a bare
         * clone beside its work trees: {@code gitdir: ./.bare}), whose hooks and config are protected as if they were
         * in a {@code .git} folder at the file's place.
         */
        private void gitFile(Path file) throws IOException {
            if (rules.check(relative(file)).isEmpty()) {
                return;
            }
            keep(file);
            Optional<Path> git = GitPointers.gitdir(file);
            if (git.isPresent()) {
                elsewhere(file, git.get(), Optional.of("the gitdir: line of " + relative(file)));
            }
        }

        /**
         * The git folder {@code git} that git finds through {@code entry} (a {@code .git} link or file, or the
         * {@code .git} whose git folder's {@code commondir} names it). Inside the workspace it is pinned, and its
         * entries are judged as if {@code entry} were a {@code .git} folder, unless the rules judge them by their own
         * names already (a submodule's folder in {@code .git/modules}). Either way, and outside the workspace too, the
         * places its config points git at in the workspace are protected (a work tree's {@code .githooks}, named by a
         * main repository elsewhere). {@code through} says how, for the file tools' messages; empty for a link, which
         * the file tools follow anyway.
         */
        private void elsewhere(Path entry, Path git, Optional<String> through) throws IOException {
            if (!Files.isDirectory(git)) {
                return;
            }
            if (!inside(git) || ProtectedPaths.isGitFolderByName(relative(git))) {
                pointers(git, entry.getParent());
                return;
            }
            through.ifPresent(how -> redirects.add(new ProtectedPaths.Redirect(entry, git, how)));
            if (gitFolders.add(git)) {
                addOnce(elsewhere, git);
                pinRepository(git);
                gitFolder(git, entry);
            } else {
                // Met already, through another entry: another work tree whose config may point elsewhere.
                pointers(git, entry.getParent());
            }
        }

        /**
         * A git folder's protected entries, those of its submodules' and worktrees' folders, and the places its config
         * points git at. {@code git} is the folder on disk, {@code named} where git finds it (a {@code .git} link's
         * place), by which the rules judge its entries.
         */
        private void gitFolder(Path git, Path named) throws IOException {
            gitFolders.add(git);
            Path hooks = git.resolve("hooks");
            Path commondir = git.resolve("commondir");
            Optional<Path> common = GitPointers.common(git);
            // A repository without a hooks folder (some templates make none) would take one created there; one with a
            // common folder takes its hooks from there.
            if (!Files.exists(hooks, LinkOption.NOFOLLOW_LINKS)
                    && common.isEmpty()
                    && rules.check(as(git, named, hooks)).isPresent()) {
                missing.add(hooks);
            }
            if (!Files.exists(commondir, LinkOption.NOFOLLOW_LINKS)
                    && rules.check(as(git, named, commondir)).isPresent()) {
                absent.add(commondir);
            }
            pointers(git, named.getParent());
            if (common.isPresent() && !common.get().equals(git)) {
                elsewhere(named, common.get(), Optional.of("the commondir of " + shown(git)));
            }
            List<Path> candidates = new ArrayList<>();
            candidates.add(hooks);
            candidates.add(git.resolve("config"));
            candidates.add(git.resolve("config.worktree"));
            candidates.add(commondir);
            Set<Path> modulesLinks = new HashSet<>();
            for (String nested : List.of("modules", "worktrees")) {
                Path folder = git.resolve(nested);
                if (Files.isSymbolicLink(folder) && nested.equals("modules")) {
                    modulesLinks.add(folder);
                } else if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                    // Links are met, not followed: one in a protected place is kept, and protected where it leads.
                    Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path path, BasicFileAttributes attributes) {
                            candidate(path);
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path path, BasicFileAttributes attributes) {
                            candidate(path);
                            if (nested.equals("modules") && attributes.isSymbolicLink()) {
                                modulesLinks.add(path);
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        /** Kept in mind only when protected: the walk meets every object of every submodule. */
                        private void candidate(Path path) {
                            if (rules.isEntry(as(git, named, path))) {
                                candidates.add(path);
                            }
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path path, IOException e) {
                            // A folder that cannot be listed (chmod 111) may hold hooks git still enters by name:
                            // it is kept read-only whole rather than taken for empty.
                            keep(path);
                            addOnce(
                                    warnings,
                                    relative(path) + " could not be read ("
                                            + e.getClass().getSimpleName()
                                            + "), so it is read-only in the sandbox as a whole.");
                            return FileVisitResult.CONTINUE;
                        }
                    });
                }
            }
            gitModules.add(new GitModules(git, relative(named), Set.copyOf(modulesLinks)));
            for (Path candidate : candidates) {
                if (rules.isEntry(as(git, named, candidate)) && Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    keep(candidate);
                }
            }
        }

        /**
         * The places the config of the git folder {@code git} (work tree {@code workTree}) points git at, kept as they
         * are, or absent; one that holds the repository is left out, which the user is told.
         */
        private void pointers(Path git, Path workTree) {
            GitPointers.Found found = GitPointers.of(git, workTree, root, rules.userGit());
            found.warnings().forEach(warning -> addOnce(warnings, warning));
            for (Path place : found.places()) {
                if (rules.allowed().stream().noneMatch(entry -> place.startsWith(root.resolve(entry)))) {
                    if (Files.exists(place, LinkOption.NOFOLLOW_LINKS)) {
                        keep(place);
                    } else {
                        keepAbsent(place);
                    }
                }
            }
        }

        /** The name the rules judge {@code path} (inside the git folder {@code git}) by: as if under {@code named}. */
        private String as(Path git, Path named, Path path) {
            return relative(named.resolve(git.relativize(path)));
        }

        void protect(Path path) {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                    && rules.check(relative(path)).isPresent()) {
                keep(path);
            }
        }

        /**
         * An existing protected path: read-only as named; when a link (its own or a folder's above it) leads it
         * elsewhere, that link is kept as it is, and where it leads is protected too if that lies in the workspace,
         * unless it is a folder that holds the link ({@code .vscode -> .}: see {@link #warnings}). A place it leads out
         * to is mounted nowhere: no command in the sandbox can write there. A link that leads nowhere yet has its
         * target kept absent, since a command could create it; or, for a protected folder's link that names a missing
         * folder in an existing one ({@code .vscode -> cfg}), gets an empty placeholder there like a missing protected
         * folder (see {@link #placeholderFor}).
         */
        private void keep(Path path) {
            addOnce(readOnly, path);
            Optional<Path> real = realPath(path);
            if (real.isPresent() && real.get().equals(path)) {
                return;
            }
            linksAlong(path);
            if (real.isPresent() && inside(real.get())) {
                if (!holds(real.get(), path)) {
                    addOnce(readOnly, real.get());
                } else {
                    addOnce(
                            warnings,
                            relative(path) + " is a link to " + shown(real.get()) + ", a folder that holds it: only"
                                    + " the link is protected, not the files in that folder.");
                }
            } else if (real.isEmpty()) {
                KernelPaths.target(path).filter(this::inside).ifPresent(target -> {
                    if (placeholderFor(path, target)) {
                        addOnce(missing, target);
                    } else {
                        addOnce(absent, target);
                    }
                });
            }
        }

        /**
         * Whether the missing {@code target} of the dangling protected link {@code path} is kept out by an empty
         * placeholder, read-only in the container, rather than removed once made: so a file the user approves there
         * (the file tools ask before writing {@code cfg/tasks.json} for {@code .vscode -> cfg}) stays, in a folder no
         * command can write. Only for a link of a protected folder's name, or a hooks folder, whose text names the
         * target without {@code ..} nor a link on the way, in a folder that exists: there the placeholder is exactly
         * where the link leads once it is made ({@code .vscode -> missing/../src} would lead to {@code src}).
         */
        private boolean placeholderFor(Path path, Path target) {
            String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
            if (!Files.isSymbolicLink(path) || !(ProtectedPaths.FOLDERS.contains(name) || name.equals("hooks"))) {
                return false;
            }
            try {
                Path text = Files.readSymbolicLink(path);
                for (Path part : text) {
                    if (part.toString().equals("..")) {
                        return false;
                    }
                }
                Path parent = target.getParent();
                return path.getParent().resolve(text).normalize().equals(target)
                        && parent != null
                        && parent.equals(realPath(parent).orElse(null))
                        && Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        /** A protected place that does not exist and must stay so; if a link leads it elsewhere, there too. */
        private void keepAbsent(Path place) {
            addOnce(absent, place);
            Optional<Path> target = KernelPaths.target(place);
            if (target.isPresent() && !target.get().equals(place)) {
                linksAlong(place);
                if (inside(target.get())) {
                    addOnce(absent, target.get());
                }
            }
        }

        /** Records each link between the root and {@code path}, {@code path} included. */
        private void linksAlong(Path path) {
            Path top = rootOf(path);
            List<Path> along = new ArrayList<>();
            for (Path at = path; at != null && !at.equals(top) && at.startsWith(top); at = at.getParent()) {
                along.add(0, at);
            }
            for (Path at : along) {
                if (Files.isSymbolicLink(at) && !links.containsKey(at)) {
                    try {
                        Path text = Files.readSymbolicLink(at);
                        Optional<Path> leads =
                                realPath(at).or(() -> KernelPaths.target(at)).filter(this::inside);
                        // What a protected link leads to is protected as the link; not a folder that holds it (a
                        // .git link's folder is judged as a git folder, by its hooks and config alone).
                        if (leads.isPresent()
                                && holds(leads.get(), at)
                                && rules.check(relative(at)).isPresent()
                                && !at.getFileName().toString().equalsIgnoreCase(".git")) {
                            leads = Optional.empty();
                        }
                        links.put(at, new Link(at, text, leads));
                    } catch (IOException e) {
                        // Gone since it was seen: nothing to keep.
                    }
                }
            }
        }

        /**
         * Whether {@code folder} holds {@code link}, or is one of the workspace's roots: protected whole where a
         * protected link leads, it would make every file there need the user's yes.
         */
        private boolean holds(Path folder, Path link) {
            return link.startsWith(folder) || roots.contains(folder);
        }

        private String shown(Path folder) {
            Path top = rootOf(folder);
            return folder.equals(top) ? "the top of the workspace" : ProtectedPaths.relative(top, folder);
        }

        /**
         * Every real folder between its root and each protected path that is not pinned already, nor read-only itself
         * (nothing in a read-only folder can be renamed): see {@link #above}.
         */
        void pinFoldersAbove() {
            Set<Path> folders = new LinkedHashSet<>();
            List<Path> protectedPaths = new ArrayList<>(readOnly);
            protectedPaths.addAll(writable);
            protectedPaths.addAll(missing);
            protectedPaths.addAll(absent);
            for (Path path : protectedPaths) {
                Path top = rootOf(path);
                for (Path folder = path.getParent();
                        folder != null && !folder.equals(top) && folder.startsWith(top);
                        folder = folder.getParent()) {
                    if (!pinned.contains(folder)
                            && !folders.contains(folder)
                            && readOnly.stream().noneMatch(folder::startsWith)
                            && missing.stream().noneMatch(folder::startsWith)
                            && Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                            && folder.equals(realPath(folder).orElse(null))) {
                        folders.add(folder);
                    }
                }
            }
            above.addAll(folders);
        }

        void ifMissing(Path folder) {
            if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)
                    && rules.check(relative(folder)).isPresent()) {
                missing.add(folder);
            }
        }

        /** Whether {@code path} lies in one of the workspace's roots, which the container can write. */
        private boolean inside(Path path) {
            return roots.stream().anyMatch(path::startsWith);
        }

        /** The root {@code path} lies in: this scan's, or the first other root that holds it. */
        private Path rootOf(Path path) {
            if (path.startsWith(root)) {
                return root;
            }
            return roots.stream().filter(path::startsWith).findFirst().orElse(root);
        }

        private static <T> void addOnce(List<T> list, T item) {
            if (!list.contains(item)) {
                list.add(item);
            }
        }

        private String relative(Path path) {
            return ProtectedPaths.relative(root, path);
        }
    }

    /**
     * A fingerprint of every protected path, and of each missing one's absence: those the scan found, and those the
     * rules name now, found by a walk of the root (new ones included: a {@code pkg/.claude}, an {@code .mcp.json}, a
     * submodule's hooks); relative path to its type, size, time and (for small files) content hash, listing a
     * folder's entries.
     */
    public Map<String, String> fingerprint() {
        List<Path> known = new ArrayList<>(readOnly);
        known.addAll(missing);
        known.addAll(absent);
        return ProtectedFingerprint.of(root, rules, known, maxFolders);
    }

    /**
     * What differs between two fingerprints, one phrase per path, like {@code .git/hooks/pre-commit (created)}.
     */
    public static List<String> changes(Map<String, String> before, Map<String, String> after) {
        return ProtectedFingerprint.changes(before, after);
    }
}
