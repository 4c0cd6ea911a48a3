package dev.dockhand.core.checkpoint;

import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;

/**
 * Keeps the user's and the system's git configuration out of the shadow repository: a global {@code core.autocrlf}
 * would change the bytes a restore writes back, and a global excludes file would hide files from a snapshot that the
 * workspace's own rules keep. Dockhand uses JGit for nothing else, so the process-wide reader is ours to set.
 */
final class IsolatedGitConfig extends SystemReader.Delegate {
    private IsolatedGitConfig(SystemReader delegate) {
        super(delegate);
    }

    static synchronized void install() {
        SystemReader current = SystemReader.getInstance();
        if (!(current instanceof IsolatedGitConfig)) {
            SystemReader.setInstance(new IsolatedGitConfig(current));
        }
    }

    @Override
    public FileBasedConfig openUserConfig(Config parent, FS fs) {
        return empty(parent, fs);
    }

    @Override
    public FileBasedConfig openSystemConfig(Config parent, FS fs) {
        return empty(parent, fs);
    }

    @Override
    public FileBasedConfig openJGitConfig(Config parent, FS fs) {
        return empty(parent, fs);
    }

    private static FileBasedConfig empty(Config parent, FS fs) {
        return new FileBasedConfig(parent, null, fs) {
            @Override
            public void load() {
                // Nothing to read: this configuration is empty on purpose.
            }

            @Override
            public void save() {
                // Never written.
            }

            @Override
            public boolean isOutdated() {
                return false;
            }

            /**
             * Without a file system's timestamp resolution in the configuration, JGit measures it on first use by
             * writing probe files until their times differ, which took seconds and left files being written after the
             * store closed. The coarse resolution given instead (JGit's own fallback) is safe on any file system: it
             * only makes a snapshot read a file changed within the last two seconds to be sure, not trust its time.
             */
            @Override
            public String getString(String section, String subsection, String name) {
                if ("filesystem".equals(section) && "timestampResolution".equals(name)) {
                    return "2 seconds";
                }
                return super.getString(section, subsection, name);
            }
        };
    }
}
