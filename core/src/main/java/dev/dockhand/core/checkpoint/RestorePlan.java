package dev.dockhand.core.checkpoint;

import java.util.List;

/**
 * What a restore would do, file by file, for the user to confirm before anything is written.
 *
 * @param files the files that differ from the state they are restored to, in path order
 */
public record RestorePlan(List<FileRestore> files) {
    public RestorePlan {
        files = List.copyOf(files);
    }

    /** What happens to one file. */
    public enum Action {
        /** It did not exist then (a call created it): it is removed. */
        REMOVE,
        /** It existed then (a call changed, renamed or deleted it): its content and executable bit are put back. */
        WRITE,
        /**
         * It is not in the snapshot, but it is older than the call: it existed then and was left out (ignored, too
         * large or unreadable at that time, e.g. a {@code .env} the call took out of {@code .gitignore}), so it is
         * left as it is rather than removed as if the call had created it.
         */
        KEEP
    }

    /**
     * One file to restore.
     *
     * @param path relative to the workspace, with {@code /}
     * @param action what is done to it
     * @param changedSince true when the file is no longer as the last call left it: someone changed it by hand since,
     *     and restoring overwrites that
     * @param fromTree the snapshot it is restored from
     */
    public record FileRestore(String path, Action action, boolean changedSince, String fromTree) {}

    /** Whether there is nothing to write or remove (files only kept do not count). */
    public boolean isEmpty() {
        return files.stream().allMatch(file -> file.action() == Action.KEEP);
    }

    /** The files changed by hand since the calls, which a restore would overwrite. */
    public List<String> changedSince() {
        return files.stream()
                .filter(file -> file.changedSince() && file.action() != Action.KEEP)
                .map(FileRestore::path)
                .toList();
    }
}
