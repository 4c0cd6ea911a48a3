package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.LoggerFactory;

/**
 * The workspace paths whose content other programs run or obey later, on the host, outside any sandbox: the hooks
 * and config of every git repository (a hook or a {@code core.fsmonitor} line runs at the user's next commit or
 * {@code git status}), the {@code .git} entry itself (a {@code .git} file can point git at another repository),
 * editor and hook-manager folders ({@code .vscode}, {@code .idea}, {@code .husky}) and Dockhand's own
 * {@code .dockhand}. The model may read them; changing them needs the user's explicit yes, which yolo does not
 * give, and the Docker sandbox mounts them read-only.
 *
 * <p>The user alone widens or narrows the set, from their own settings or flags, one entry per path: {@code added}
 * paths are protected too, {@code allowed} paths (and everything under them) are not. Entries are relative to a
 * workspace root, '/'-separated, such as {@code .git/hooks} or {@code vendor/lib/.git/config}.
 */
public final class ProtectedPaths {
    /**
     * Folders, at any depth, that editors, hook managers and coding agents act on when the user opens, commits or
     * starts an agent in the project (an agent may be started in any subfolder, which is then its project).
     */
    public static final List<String> FOLDERS = List.of(
            ".dockhand",
            ".vscode",
            ".devcontainer",
            ".idea",
            ".husky",
            ".claude",
            ".gemini",
            ".qwen",
            ".codex",
            ".cursor",
            ".opencode");

    /**
     * A repository's files that git runs or obeys, directly under its git directory: its config, and
     * {@code commondir}, which makes git take config and hooks from another folder.
     */
    private static final Set<String> GIT_CONFIG_FILES = Set.of("config", "config.worktree", "commondir");

    /** Hook managers' files, at any depth: the commands they list run at the user's next commit. */
    public static final Set<String> HOOK_MANAGER_FILES = Set.of(
            ".pre-commit-config.yaml",
            "lefthook.yml",
            "lefthook.yaml",
            ".lefthook.yml",
            ".lefthook.yaml",
            "lefthook-local.yml",
            "lefthook-local.yaml",
            ".lefthook-local.yml",
            ".lefthook-local.yaml");

    /**
     * Other tools' files, at any depth, with what runs from each on the host: Claude Code starts the MCP servers a
     * project's {@code .mcp.json} lists, opencode those of the {@code opencode.json} or {@code opencode.jsonc} it finds
     * in the folder it starts in or one above it, VS Code and the devcontainer CLI run a {@code .devcontainer.json}'s
     * {@code initializeCommand} on the host as they open the folder, and aider runs the {@code lint-cmd} and
     * {@code test-cmd} of the {@code .aider.conf.yml} at the repository's top or in the folder it starts in.
     */
    private static final Map<String, String> TOOL_FILE_REASONS = Map.of(
            ".mcp.json",
            "Claude Code starts the MCP servers it lists",
            "opencode.json",
            "opencode starts the MCP servers it lists",
            "opencode.jsonc",
            "opencode starts the MCP servers it lists",
            ".devcontainer.json",
            "VS Code and the devcontainer CLI run its initializeCommand on your machine when they open the folder",
            ".aider.conf.yml",
            "aider runs the lint and test commands it sets");

    /** The names of {@link #TOOL_FILE_REASONS}: other tools' files, protected at any depth. */
    public static final Set<String> TOOL_FILES = TOOL_FILE_REASONS.keySet();

    /** A linked worktree's own files under {@code .git/worktrees/<name>/}: its config and where git looks next. */
    private static final Set<String> WORKTREE_FILES = Set.of("config.worktree", "commondir", "gitdir", "hooks");

    private final List<String> added;
    private final List<String> allowed;
    private final UserGitConfig userGit;

    /**
     * Per workspace root, the links on the way to its protected paths and the git folders that {@code .git} files and
     * {@code commondir} files send git to, as its last {@link ProtectedLayout} scan found them: a real path one of
     * them leads to is protected as the path it stands for.
     */
    private final Map<Path, List<Redirect>> redirects = new ConcurrentHashMap<>();

    /**
     * A protected path that sends programs to a folder elsewhere inside the workspace: what is in {@code leadsTo} is
     * what they find under {@code path}. {@code through} says how, for messages ({@code the link .vscode}).
     */
    record Redirect(Path path, Path leadsTo, String through) {}

    /** Why a path is protected: the protected entry it falls under, and what runs it. */
    public record Protection(String entry, String why) {
        /** One sentence for the model and the user. */
        public String describe() {
            return entry + " is protected: " + why + ".";
        }
    }

    /**
     * @param added more paths to protect, from the user's settings or flags
     * @param allowed protected paths the user lets the model change, from the user's settings or flags
     * @throws IllegalArgumentException when an entry is absolute or leads out with {@code ..}
     */
    public ProtectedPaths(List<String> added, List<String> allowed) {
        this(added, allowed, UserGitConfig.none());
    }

    /**
     * @param added more paths to protect, from the user's settings or flags
     * @param allowed protected paths the user lets the model change, from the user's settings or flags
     * @param userGit the user's own git config files, whose {@code core.hooksPath} applies to every repository
     * @throws IllegalArgumentException when an entry is absolute or leads out with {@code ..}
     */
    public ProtectedPaths(List<String> added, List<String> allowed, UserGitConfig userGit) {
        this.added = normalizeAll(added);
        this.allowed = normalizeAll(allowed);
        this.userGit = userGit;
    }

    public static ProtectedPaths defaults() {
        // A fresh one each time: each holds what the scans of its own workspaces found.
        return new ProtectedPaths(List.of(), List.of());
    }

    public List<String> added() {
        return added;
    }

    public List<String> allowed() {
        return allowed;
    }

    /** The user's own git config files, read for a {@code core.hooksPath} (see {@link UserGitConfig}). */
    public UserGitConfig userGit() {
        return userGit;
    }

    /**
     * The protection of {@code path} (absolute, inside one of the workspace's roots), or empty: by the rules, and by
     * what the git repositories around it point git at ({@code core.hooksPath}, includes, linked hooks), read from
     * their config now.
     */
    public Optional<Protection> check(Workspace workspace, Path path) {
        Path normal = path.toAbsolutePath().normalize();
        for (Path root : workspace.roots()) {
            if (normal.startsWith(root)) {
                Optional<Protection> direct = direct(root, normal);
                return direct.isPresent() ? direct : linkedTo(workspace, normal);
            }
        }
        return Optional.empty();
    }

    private Optional<Protection> direct(Path root, Path path) {
        Optional<Protection> byRule = check(relative(root, path));
        return byRule.isPresent() ? byRule : pointedAt(root, path);
    }

    /**
     * Whether a link on the way to a protected path leads to {@code path}, or to a folder above it: {@code .vscode ->
     * cfg} makes {@code cfg/tasks.json} what VS Code runs, so it is protected as {@code .vscode/tasks.json}, under the
     * same entry (an approval of a write through the link then holds for the write where it lands). So does a link
     * that leads nowhere yet, where it would lead once that is made (see {@link ProtectedLayout#links}), and a git
     * folder that a {@code .git} file's {@code gitdir:} line or a {@code commondir} sends git to: {@code .bare/config}
     * is {@code .git/config} for a {@code .git} file reading {@code gitdir: ./.bare}.
     */
    private Optional<Protection> linkedTo(Workspace workspace, Path path) {
        for (Path root : workspace.roots()) {
            for (Redirect redirect : redirects(root, workspace.roots())) {
                if (!path.startsWith(redirect.leadsTo()) || !redirect.path().startsWith(root)) {
                    continue;
                }
                Path standsFor = redirect.path().resolve(redirect.leadsTo().relativize(path));
                Optional<Protection> protection = direct(root, standsFor);
                if (protection.isPresent()) {
                    return Optional.of(new Protection(
                            protection.get().entry(),
                            protection.get().why() + " (" + relative(workspace.root(), path) + " is "
                                    + relative(root, standsFor) + " through " + redirect.through() + ")"));
                }
            }
        }
        return Optional.empty();
    }

    /** The redirects of {@code root}'s protected paths, from the scan of it, scanning it now if none was made. */
    private List<Redirect> redirects(Path root, List<Path> roots) {
        List<Redirect> found = redirects.get(root);
        if (found == null) {
            try {
                ProtectedLayout.scan(root, roots, this);
                found = redirects.getOrDefault(root, List.of());
            } catch (IOException | RuntimeException e) {
                LoggerFactory.getLogger(ProtectedPaths.class).error("could not scan {} for protected paths", root, e);
                found = List.of();
                redirects.put(root, found);
            }
        }
        return found;
    }

    /** What a scan of {@code root} found: see {@link #redirects}. */
    void remember(Path root, List<Redirect> found) {
        redirects.put(root, List.copyOf(found));
    }

    /**
     * Whether a repository that holds {@code path} points git at it, or at a folder above it, read now: its
     * {@code .git} is a file whose {@code gitdir:} line (or a {@code commondir} there) names a git folder that holds
     * {@code path} ({@code .bare/hooks/x} for {@code gitdir: ./.bare} is {@code .git/hooks/x}), or its config names a
     * place that holds it.
     */
    private Optional<Protection> pointedAt(Path root, Path path) {
        for (Path folder = path.getParent(); folder != null && folder.startsWith(root); folder = folder.getParent()) {
            Path entry = folder.resolve(".git");
            for (Path git : GitPointers.folders(entry)) {
                if (!git.equals(entry) && path.startsWith(git)) {
                    Path standsFor = entry.resolve(git.relativize(path));
                    Optional<Protection> byName = check(relative(root, standsFor));
                    if (byName.isPresent()) {
                        return Optional.of(new Protection(
                                byName.get().entry(),
                                byName.get().why() + " (" + relative(root, path) + " is " + relative(root, standsFor)
                                        + " through " + relative(root, entry) + ")"));
                    }
                }
                Optional<Protection> named = namedBy(root, path, git, folder);
                if (named.isPresent()) {
                    return named;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether the config of the repository with git folder {@code git} and work tree {@code workTree} names path. */
    private Optional<Protection> namedBy(Path root, Path path, Path git, Path workTree) {
        for (Path place : GitPointers.of(git, workTree, root, userGit).places()) {
            // Also where the place really is: hooksPath = tools/hooks with tools -> lib runs lib/hooks; but not a
            // folder that holds the repository (tools -> .), of which the link alone is protected.
            boolean under = path.startsWith(place)
                    || ProtectedLayout.realPath(place)
                            .filter(real -> real.startsWith(root)
                                    && !real.equals(root)
                                    && !workTree.startsWith(real)
                                    && !git.startsWith(real)
                                    && path.startsWith(real))
                            .isPresent();
            if (under && !isAllowed(relative(root, path))) {
                String config = git.startsWith(root)
                        ? relative(root, git) + "/config"
                        : git.resolve("config").toString();
                return Optional.of(new Protection(
                        relative(root, place), "git runs hooks from it or reads config from it (" + config + ")"));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the rules themselves judge what lies in {@code folder} (relative to a root) as a git folder's: it is a
     * {@code .git} folder, or a submodule's or worktree's folder in one, whose hooks are protected by their name.
     */
    static boolean isGitFolderByName(String folder) {
        String hooks = folder.isEmpty() ? "hooks" : folder + "/hooks";
        return builtIn(normalize(hooks).split("/")).isPresent();
    }

    /** {@code path} relative to {@code root}, '/'-separated, as the rules name paths. */
    static String relative(Path root, Path path) {
        return root.relativize(path).toString().replace('\\', '/');
    }

    /**
     * Whether {@code relative} is a protected entry of its own (a hooks folder, a config file, a protected folder), not
     * merely a path under one.
     */
    boolean isEntry(String relative) {
        return check(relative)
                .filter(protection -> protection.entry().equals(relative))
                .isPresent();
    }

    /** The protection of a path relative to a workspace root ('/'-separated), or empty. */
    public Optional<Protection> check(String relative) {
        String path = normalize(relative);
        if (path.isEmpty() || isAllowed(path)) {
            return Optional.empty();
        }
        for (String entry : added) {
            if (path.equals(entry) || path.startsWith(entry + "/")) {
                return Optional.of(new Protection(entry, "you listed it among your protected paths"));
            }
        }
        return builtIn(path.split("/"));
    }

    private boolean isAllowed(String path) {
        return allowed.stream().anyMatch(entry -> path.equals(entry) || path.startsWith(entry + "/"));
    }

    /**
     * The built-in protections. Names are compared without case: on a case-insensitive file system (macOS, Windows)
     * {@code .Git/Hooks} is git's own folder.
     */
    private static Optional<Protection> builtIn(String[] parts) {
        String[] names = new String[parts.length];
        for (int i = 0; i < parts.length; i++) {
            names[i] = parts[i].toLowerCase(Locale.ROOT);
        }
        // A protected folder first: .opencode/opencode.json is protected as the folder it lies in.
        for (int i = 0; i < parts.length; i++) {
            if (FOLDERS.contains(names[i])) {
                return Optional.of(new Protection(join(parts, i + 1), folderReason(names[i])));
            }
            if (names[i].equals(".git")) {
                Optional<Protection> git = git(parts, names, i);
                if (git.isPresent()) {
                    return git;
                }
                break;
            }
        }
        if (HOOK_MANAGER_FILES.contains(names[names.length - 1])) {
            return Optional.of(new Protection(
                    join(parts, parts.length), "a hook manager runs the commands it lists at your next commit"));
        }
        String why = TOOL_FILE_REASONS.get(names[names.length - 1]);
        if (why != null) {
            return Optional.of(new Protection(join(parts, parts.length), why));
        }
        return Optional.empty();
    }

    /**
     * Inside a git directory at {@code parts[git]} ({@code names} are the parts in lower case): its hooks and config,
     * and those of submodules and worktrees.
     */
    private static Optional<Protection> git(String[] parts, String[] names, int git) {
        int last = parts.length - 1;
        if (git == last) {
            return Optional.of(new Protection(
                    join(parts, git + 1), "it decides which repository and settings git uses on your machine"));
        }
        String next = names[git + 1];
        if (next.equals("hooks")) {
            return Optional.of(hooks(parts, git + 2));
        }
        if (git + 1 == last && GIT_CONFIG_FILES.contains(next)) {
            return Optional.of(config(parts));
        }
        if (next.equals("modules")) {
            // Submodule git directories nest (.git/modules/a/modules/b) and take the submodule's path as name.
            for (int i = git + 2; i <= last; i++) {
                if (names[i].equals("hooks")) {
                    return Optional.of(hooks(parts, i + 1));
                }
                if (i == last && GIT_CONFIG_FILES.contains(names[i])) {
                    return Optional.of(config(parts));
                }
            }
        }
        if (next.equals("worktrees") && git + 3 <= last && WORKTREE_FILES.contains(names[git + 3])) {
            return Optional.of(names[git + 3].equals("hooks") ? hooks(parts, git + 4) : config(parts));
        }
        return Optional.empty();
    }

    private static Protection hooks(String[] parts, int end) {
        return new Protection(join(parts, end), "git runs the hooks in it on your machine");
    }

    private static Protection config(String[] parts) {
        return new Protection(
                join(parts, parts.length),
                "git obeys it on your machine, and settings such as core.fsmonitor or core.hooksPath run commands");
    }

    private static String folderReason(String folder) {
        return switch (folder) {
            case ".dockhand" -> "it holds Dockhand's own settings for this folder";
            case ".vscode" -> "VS Code runs the tasks and obeys the settings in it";
            case ".devcontainer" -> "VS Code and the devcontainer CLI run the initializeCommand of the devcontainer.json in it on your"
                    + " machine when they open the folder";
            case ".idea" -> "JetBrains IDEs run the tools and obey the settings in it";
            case ".husky" -> "husky runs the git hooks in it";
            case ".claude" -> "Claude Code runs the hooks and obeys the settings in it";
            case ".gemini" -> "Gemini CLI starts the MCP servers and obeys the settings in it";
            case ".qwen" -> "Qwen Code starts the MCP servers and obeys the settings in it";
            case ".codex" -> "Codex starts the MCP servers and obeys the config in it";
            case ".opencode" -> "opencode starts the MCP servers and loads the plugins in it";
            default -> "Cursor starts the MCP servers and obeys the rules in it";
        };
    }

    private static String join(String[] parts, int end) {
        return String.join("/", List.of(parts).subList(0, end));
    }

    private static List<String> normalizeAll(List<String> entries) {
        List<String> normalized = new ArrayList<>();
        for (String entry : entries) {
            String path = normalize(entry);
            if (path.isEmpty() || entry.strip().startsWith("/") || path.equals("..") || path.startsWith("../")) {
                throw new IllegalArgumentException("'" + entry + "' is not a path inside the workspace; give it"
                        + " relative to the workspace, like .git/hooks.");
            }
            normalized.add(path);
        }
        return List.copyOf(normalized);
    }

    /** '/'-separated, without {@code .} parts or a trailing slash; {@code ..} resolved where it can be. */
    private static String normalize(String path) {
        String slashed = path.strip().replace('\\', '/');
        String normal = Path.of(slashed.isEmpty() ? "." : slashed)
                .normalize()
                .toString()
                .replace('\\', '/');
        return normal.equals(".") ? "" : normal;
    }
}
