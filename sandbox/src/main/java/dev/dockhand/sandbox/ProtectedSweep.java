package dev.dockhand.sandbox;

import dev.dockhand.core.FileTrees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a workspace's protected paths back as the session found them: each link on the way to one that a command
 * removed, retargeted or replaced is put back, and each path that must stay absent is removed (the steps {@link
 * ProtectedMounts#steps} finds by looking only). What a command put there may be a tree in which it swaps a folder for a
 * link to the user's home, over and over, while the clean-up runs (a background command does not wait for it).
 *
 * <p>So while a container runs the steps run in it ({@link #inContainer}), as the container's user, with {@code rm},
 * {@code ln} and {@code mv}: there a swapped link leads only where the container sees, which commands can change
 * anyway, so no race can make the clean-up reach further than they do. On this machine ({@link #onHost}) they run only
 * where nothing of the sandbox writes meanwhile: with the sync transport (the container has no mount of this machine),
 * or once the container is removed. Folders held open here ({@code openat}) would not do: the JDK opens a sub-folder
 * with a plain {@code open}, so a folder swapped for a named pipe at the right moment would block this thread for ever.
 */
final class ProtectedSweep {
    private static final Logger log = LoggerFactory.getLogger(ProtectedSweep.class);

    /** How long the steps may take in the container; they remove what commands made, which is seldom much. */
    private static final Duration LIMIT = Duration.ofSeconds(60);

    /**
     * The steps, after a stem for the names of temporary links: three arguments each ({@code rm PATH -} or {@code ln
     * PATH TEXT}), one line of output each: {@code same} when there was nothing to do, {@code done}, or {@code
     * failed}. A link is made under a fresh name beside its place and renamed over it ({@code mv -T} replaces a file or
     * link in one step); a folder in its place is first renamed aside, then removed once the link is in place. {@code
     * ln -T} makes the link at that name or fails: a folder a command made there beforehand would otherwise take the
     * link inside it and be moved onto the place itself. Every name is an argument, never part of the script.
     */
    private static final String SCRIPT = String.join(
            "\n",
            "stem=$1 step=0",
            "shift",
            "put_link() {",
            "  local place=$1 text=$2 dir=${1%/*} temp aside asides=() try",
            "  temp=$dir/.dockhand-link.$stem.$step",
            "  ln -sT -- \"$text\" \"$temp\" 2>/dev/null || return 1",
            "  for try in 1 2 3 4 5 6 7 8; do",
            "    if mv -fT -- \"$temp\" \"$place\" 2>/dev/null; then",
            "      rm -rf -- \"${asides[@]}\"",
            "      return 0",
            "    fi",
            "    aside=$dir/.dockhand-aside.$stem.$step.$try",
            "    mv -fT -- \"$place\" \"$aside\" 2>/dev/null && asides+=(\"$aside\")",
            "  done",
            "  rm -f -- \"$temp\"",
            "  rm -rf -- \"${asides[@]}\"",
            "  return 1",
            "}",
            "while [ $# -ge 3 ]; do",
            "  step=$((step + 1))",
            "  case $1 in",
            "    rm)",
            "      if [ ! -e \"$2\" ] && [ ! -L \"$2\" ]; then echo same",
            "      elif rm -rf -- \"$2\" 2>/dev/null && [ ! -e \"$2\" ] && [ ! -L \"$2\" ]; then echo done",
            "      else echo failed; fi ;;",
            "    ln)",
            "      if [ -L \"$2\" ] && [ \"$(readlink -- \"$2\")\" = \"$3\" ]; then echo same",
            "      elif put_link \"$2\" \"$3\"; then echo done",
            "      else echo failed; fi ;;",
            "    *) echo failed ;;",
            "  esac",
            "  shift 3",
            "done",
            "");

    private ProtectedSweep() {}

    /**
     * One step: a path that must stay absent, or a link to put back, or a folder that could not be checked for what
     * must stay absent; {@code name} is its path for messages.
     */
    sealed interface Step permits Remove, PutBack, Unchecked {
        Path path();

        String name();
    }

    /** A path that must stay absent, or a link a command planted on the way to one: removed, never followed. */
    record Remove(Path path, String name) implements Step {}

    /** A link on the way to a protected path, to read {@code text} again. */
    record PutBack(Path path, Path text, String name) implements Step {}

    /**
     * A folder that could not be looked at whole for what must stay absent in it ({@link
     * dev.dockhand.core.tool.ProtectedLayout.Unchecked}): nothing is done there, and the step always fails, so that
     * the outcome says so; {@code name} says why.
     */
    record Unchecked(Path path, String name) implements Step {}

    /** How many of {@code steps} are {@link Unchecked}: those fail whatever the sweep does. */
    static long unchecked(List<Step> steps) {
        return steps.stream().filter(Unchecked.class::isInstance).count();
    }

    /** {@code steps} less the {@link Unchecked} ones, which another sweep reports. */
    static List<Step> toTake(List<Step> steps) {
        return steps.stream().filter(step -> !(step instanceof Unchecked)).toList();
    }

    /** What a sweep did: the names of what it removed, of the links it put back, and of what it could not do. */
    record Outcome(List<String> removed, List<String> restored, List<String> failed) {
        static final Outcome NONE = new Outcome(List.of(), List.of(), List.of());

        /** Nothing could be done: each step failed. */
        static Outcome failed(List<Step> steps) {
            return new Outcome(
                    List.of(), List.of(), steps.stream().map(Step::name).toList());
        }

        /** What this and {@code later} did, and could not do, in that order. */
        Outcome plus(Outcome later) {
            if (later.isEmpty()) {
                return this;
            }
            return new Outcome(
                    concat(removed, later.removed), concat(restored, later.restored), concat(failed, later.failed));
        }

        private static List<String> concat(List<String> first, List<String> then) {
            List<String> both = new ArrayList<>(first);
            both.addAll(then);
            return List.copyOf(both);
        }

        boolean isEmpty() {
            return removed.isEmpty() && restored.isEmpty() && failed.isEmpty();
        }

        /**
         * What the model reads in a result: one sentence for the links put back, one for what was removed, one for
         * what could not be done; {@code who} names who changed them ("the command").
         */
        List<String> notices(String who) {
            List<String> notices = new ArrayList<>();
            if (!restored.isEmpty()) {
                notices.add("Put back " + String.join(", ", restored) + ", a protected link " + who + " replaced:"
                        + " programs on the user's machine read what they run or obey through it. Do not work around it;"
                        + " tell the user.");
            }
            if (!removed.isEmpty()) {
                notices.add("Removed " + String.join(", ", removed) + ", which " + who + " created: git would take its"
                        + " config and hooks from there on the user's machine. Do not work around it; tell the user.");
            }
            if (!failed.isEmpty()) {
                notices.add("Could not put back or remove " + String.join(", ", failed) + ", protected paths " + who
                        + " changed: git or an editor on the user's machine may run what is there now. Tell the user to"
                        + " look at them before using git or an editor in this project.");
            }
            return notices;
        }
    }

    /**
     * Runs the steps in container {@code files}'s container, whose paths are this machine's (the workspace is mounted
     * at its own path). When the container cannot run them (it stopped, its process limit is full), each fails.
     */
    static Outcome inContainer(List<Step> steps, ContainerFiles files) {
        return inContainer(
                steps, files, Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /** {@link #inContainer(List, ContainerFiles)}, the temporary links named {@code .dockhand-link.STEM.N}. */
    static Outcome inContainer(List<Step> steps, ContainerFiles files, String stem) {
        if (steps.isEmpty()) {
            return Outcome.NONE;
        }
        List<Step> taken = toTake(steps);
        List<String> said = List.of();
        if (!taken.isEmpty()) {
            List<String> command = new ArrayList<>(List.of("bash", "-c", SCRIPT, "dockhand-sweep", stem));
            for (Step step : taken) {
                if (step instanceof PutBack link) {
                    command.addAll(
                            List.of("ln", link.path().toString(), link.text().toString()));
                } else {
                    command.addAll(List.of("rm", step.path().toString(), "-"));
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                files.run(command, out, LIMIT);
            } catch (IOException | RuntimeException e) {
                log.error("the sandbox container could not put the protected paths back", e);
            }
            said = out.toString(StandardCharsets.UTF_8).lines().toList();
        }
        Collector outcome = new Collector();
        for (int i = 0; i < taken.size(); i++) {
            outcome.add(taken.get(i), i < said.size() ? said.get(i) : "failed");
        }
        steps.stream().filter(Unchecked.class::isInstance).forEach(step -> outcome.add(step, "failed"));
        return outcome.outcome();
    }

    /**
     * Runs the steps on this machine, by path. Only where nothing of the sandbox can write meanwhile: a walk by paths
     * looks each name up again, so a folder swapped for a link while it runs would lead it out of the workspace.
     */
    static Outcome onHost(List<Step> steps) {
        Collector outcome = new Collector();
        for (Step step : steps) {
            Path path = step.path();
            if (step instanceof Unchecked) {
                outcome.add(step, "failed");
                continue;
            }
            try {
                if (step instanceof PutBack link) {
                    if (Files.isSymbolicLink(path)
                            && Files.readSymbolicLink(path).equals(link.text())) {
                        continue;
                    }
                    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                        FileTrees.deleteTree(path);
                    }
                    Files.createSymbolicLink(path, link.text());
                } else if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                    FileTrees.deleteTree(path);
                } else {
                    continue;
                }
                outcome.add(step, "done");
            } catch (IOException | RuntimeException e) {
                log.error("could not put {} back as the session found it", path, e);
                outcome.add(step, "failed");
            }
        }
        return outcome.outcome();
    }

    /** Sorts each step's result into an {@link Outcome}. */
    private static final class Collector {
        private final List<String> removed = new ArrayList<>();
        private final List<String> restored = new ArrayList<>();
        private final List<String> failed = new ArrayList<>();

        void add(Step step, String said) {
            switch (said) {
                case "same" -> {
                    // Nothing to do: the link reads as it did, or the path is gone.
                }
                case "done" -> (step instanceof PutBack ? restored : removed).add(step.name());
                default -> {
                    if (!(step instanceof Unchecked)) {
                        // An unchecked folder is logged where it is found (ProtectedLayout.absent), once.
                        log.error("could not put {} back as the session found it", step.path());
                    }
                    failed.add(step.name());
                }
            }
        }

        Outcome outcome() {
            return new Outcome(List.copyOf(removed), List.copyOf(restored), List.copyOf(failed));
        }
    }
}
