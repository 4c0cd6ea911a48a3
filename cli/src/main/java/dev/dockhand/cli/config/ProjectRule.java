package dev.dockhand.cli.config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Whether a project's settings value may apply in a folder the user has not trusted, given the value that applies without
 * it (the user's, or the default): only when it asks for less.
 */
@FunctionalInterface
public interface ProjectRule<T> {
    boolean narrows(T value, Object without);

    /** What applies when an untrusted project's value narrows: the value itself, unless the rule combines. */
    default T merged(T value, Object without) {
        return value;
    }

    /** Any value: it changes nothing that reaches outside the workspace. */
    static <T> ProjectRule<T> any() {
        return (value, without) -> true;
    }

    /** Only the value that applies anyway: every other one widens (a server, a key, a sandbox). */
    static <T> ProjectRule<T> userOnly() {
        return (value, without) -> String.valueOf(value).equals(String.valueOf(without));
    }

    /**
     * A list of tools to offer: the project's narrows the user's to the tools on both (an empty list, which means
     * every tool, narrows nothing). Lists that share no tool leave none, written {@link Headless#NO_TOOLS}, since an
     * empty list would offer every tool.
     */
    static ProjectRule<List<String>> offered() {
        return combining((theirs, mine) -> {
            if (theirs.isEmpty() || mine.isEmpty()) {
                return theirs.isEmpty() ? mine : theirs;
            }
            List<String> both = mine.stream().filter(theirs::contains).toList();
            return both.isEmpty() ? List.of(Headless.NO_TOOLS) : both;
        });
    }

    /**
     * A list of tools whose calls run without a question: the project's counts only when every name on it is on the
     * list that applies without it, since each name lets more run unasked.
     */
    static ProjectRule<List<String>> within() {
        return (value, without) -> names(without).containsAll(value);
    }

    /** A list of tools to leave out: the project's adds to the user's, never removes from it. */
    static ProjectRule<List<String>> withheld() {
        return combining((theirs, mine) -> {
            List<String> all = new ArrayList<>(mine);
            theirs.stream().filter(name -> !all.contains(name)).forEach(all::add);
            return List.copyOf(all);
        });
    }

    /** A list that always applies, combined with the user's list by {@code merge(project's, user's)}. */
    private static ProjectRule<List<String>> combining(BinaryOperator<List<String>> merge) {
        return new ProjectRule<>() {
            @Override
            public boolean narrows(List<String> value, Object without) {
                return true;
            }

            @Override
            public List<String> merged(List<String> value, Object without) {
                return merge.apply(value, names(without));
            }
        };
    }

    private static List<String> names(Object list) {
        List<String> names = new ArrayList<>();
        if (list instanceof List<?> items) {
            items.forEach(item -> names.add(String.valueOf(item)));
        }
        return names;
    }

    /** At most the value that applies without the project. */
    static <T extends Comparable<T>> ProjectRule<T> atMost() {
        return (value, without) -> {
            @SuppressWarnings("unchecked")
            T limit = (T) without;
            return limit == null || value.compareTo(limit) <= 0;
        };
    }
}
