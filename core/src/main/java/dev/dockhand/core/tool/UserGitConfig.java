package dev.dockhand.core.tool;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The user's own git configuration, outside the workspace, which git on the host applies to every repository in it:
 * a {@code core.hooksPath} there (a common set-up is {@code git config --global core.hooksPath .githooks}, relative to
 * each work tree's top) names a folder inside the workspace that git runs hooks from. Only read, never run.
 *
 * @param home the user's home folder, for {@code ~/} in the values and include paths git expands
 * @param files the global and system config files, in the order git reads them; missing ones are passed over
 */
public record UserGitConfig(Optional<Path> home, List<Path> files) {
    public UserGitConfig {
        files = List.copyOf(files);
    }

    /** No user configuration: only the repositories' own files count. */
    public static UserGitConfig none() {
        return new UserGitConfig(Optional.empty(), List.of());
    }

    /**
     * The files git reads from {@code environment} ({@code HOME}, {@code XDG_CONFIG_HOME}, {@code GIT_CONFIG_GLOBAL},
     * {@code GIT_CONFIG_SYSTEM}): the system's {@code /etc/gitconfig}, {@code $XDG_CONFIG_HOME/git/config} (or
     * {@code ~/.config/git/config}) and {@code ~/.gitconfig}, and the files those variables name instead. All of them,
     * whichever git would pick: a file that is read needlessly only protects more.
     */
    public static UserGitConfig of(Map<String, String> environment) {
        Optional<Path> home = path(environment.get("HOME"));
        List<Path> files = new ArrayList<>();
        files.add(Path.of("/etc/gitconfig"));
        path(environment.get("GIT_CONFIG_SYSTEM")).ifPresent(files::add);
        Optional<Path> xdg = path(environment.get("XDG_CONFIG_HOME")).or(() -> home.map(h -> h.resolve(".config")));
        xdg.ifPresent(folder -> files.add(folder.resolve("git/config")));
        home.ifPresent(folder -> files.add(folder.resolve(".gitconfig")));
        path(environment.get("GIT_CONFIG_GLOBAL")).ifPresent(files::add);
        return new UserGitConfig(home, files);
    }

    /** An absolute path from a variable's value; empty when it is unset, blank, relative or not a path. */
    private static Optional<Path> path(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(value.strip());
            return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
