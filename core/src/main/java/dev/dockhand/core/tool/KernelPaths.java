package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Where a path leads as the kernel's own open finds it, name by name: what a protected link, a {@code gitdir:} line or
 * a {@code core.hooksPath} really names, which a lexical reading of {@code missing/..} gets wrong.
 */
final class KernelPaths {
    /** Most links followed one after the other, as the kernel allows. */
    private static final int MAX_HOPS = 40;

    private KernelPaths() {}

    /**
     * Where {@code path} leads, resolved name by name as the kernel does (a link met is followed, and a {@code ..}
     * after it goes up from where it led): the real path of a path that exists; else the path a command would
     * create to give it a target, which never exists: the first missing name with the names after it, or that
     * name alone when a {@code ..} comes later (a dangling {@code missing/../src} leads to {@code src} only once
     * {@code missing} is made). Empty when it cannot be worked out (a link loop, a link that cannot be read).
     */
    static Optional<Path> target(Path path) {
        Deque<String> names = new ArrayDeque<>();
        Path absolute = path.toAbsolutePath();
        absolute.forEach(name -> names.addLast(name.toString()));
        Path at = absolute.getRoot();
        int hops = 0;
        while (!names.isEmpty()) {
            String name = names.removeFirst();
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path next = at.resolve(name);
            if (!Files.isSymbolicLink(next)) {
                if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                    return Optional.of(names.contains("..") ? next : rest(next, names));
                }
                at = next;
                continue;
            }
            if (++hops > MAX_HOPS) {
                return Optional.empty();
            }
            try {
                Path text = Files.readSymbolicLink(next);
                List<String> parts = new ArrayList<>();
                text.forEach(part -> parts.add(part.toString()));
                for (int i = parts.size() - 1; i >= 0; i--) {
                    names.addFirst(parts.get(i));
                }
                if (text.isAbsolute()) {
                    at = text.getRoot();
                }
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
        return Optional.of(at);
    }

    private static Path rest(Path from, Deque<String> names) {
        Path path = from;
        for (String name : names) {
            path = name.equals(".") ? path : path.resolve(name);
        }
        return path;
    }
}
