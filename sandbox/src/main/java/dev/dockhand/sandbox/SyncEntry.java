package dev.dockhand.sandbox;

/**
 * One path of a synced workspace as one side last saw it: a folder, a regular file or a symbolic link, with what tells
 * a change. {@code stamp} is the status-change time (ctime), which every write, chmod, rename and extraction sets to
 * now and no command can set back (a {@code tar x} or {@code touch -d} restores the modification time, not this), so
 * a file whose stamp, size and mode are unchanged was not touched. Stamps of the host and of the container are never
 * compared with each other.
 *
 * @param mode the permission bits ({@code 07777}), the executable bit among them
 * @param link the target of a link, else empty
 */
record SyncEntry(Type type, long size, String stamp, int mode, String link) {

    /** The kinds of path that are synced; anything else (a socket, a device) is left where it is. */
    enum Type {
        FILE,
        DIR,
        LINK
    }

    static SyncEntry folder(int mode) {
        return new SyncEntry(Type.DIR, 0, "", mode, "");
    }

    /**
     * Whether {@code other} is this path unchanged. A folder changes only by its kind or mode: its stamp moves whenever
     * an entry in it is added or removed, and those entries are compared by themselves.
     */
    boolean same(SyncEntry other) {
        if (other == null || other.type != type) {
            return false;
        }
        return switch (type) {
            case DIR -> mode == other.mode;
            case FILE -> size == other.size && mode == other.mode && stamp.equals(other.stamp);
            case LINK -> link.equals(other.link) && stamp.equals(other.stamp);
        };
    }
}
