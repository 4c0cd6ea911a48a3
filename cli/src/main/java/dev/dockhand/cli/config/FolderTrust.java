package dev.dockhand.cli.config;

import dev.dockhand.core.settings.Settings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether the user trusts a folder's own settings ({@code <folder>/.dockhand/settings.json}): until they do, that
 * file can only narrow what the user's settings and flags allow. Decisions live in the user's own settings file,
 * under {@code trustedFolders}, keyed by the folder's real path ({@code true} trusted, {@code false} not), and are
 * made by the user only: {@code dockhand trust}, {@code dockhand untrust}, the REPL's question (recorded by
 * {@link dev.dockhand.cli.config.edit.TrustedFolders}), or {@code --trust-project} for one run.
 */
public final class FolderTrust {
    /** The key of the decisions in the user's settings file. */
    public static final String KEY = "trustedFolders";

    /** Where a folder stands. */
    enum Decision {
        /** The user trusts it: its settings apply in full. */
        TRUSTED,
        /** The user said no: its widening settings are ignored, and nobody asks again. */
        DISTRUSTED,
        /** Never decided: its widening settings are ignored, and the REPL asks. */
        UNDECIDED
    }

    private FolderTrust() {}

    /** The folder's decision in the user's settings. */
    static Decision of(Settings user, Path folder) {
        Map<String, Boolean> folders = user.trustedFolders();
        Boolean trusted = folders == null ? null : folders.get(realPath(folder).toString());
        if (trusted == null) {
            return Decision.UNDECIDED;
        }
        return trusted ? Decision.TRUSTED : Decision.DISTRUSTED;
    }

    /** The folder as the file system knows it, so a symlink or a {@code ..} cannot stand in for a trusted path. */
    public static Path realPath(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder.toAbsolutePath().normalize();
        }
    }
}
