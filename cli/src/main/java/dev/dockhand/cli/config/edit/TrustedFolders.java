package dev.dockhand.cli.config.edit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.config.FolderTrust;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Records the user's decision about a folder ({@code dockhand trust}, {@code dockhand untrust}, the REPL's question)
 * under {@code trustedFolders} of the user's own settings file, keyed by the folder's real path. The file also holds
 * tokens ({@code redaction.secretValues}, MCP servers' {@code env}), so it is written as every other edit of it is:
 * owner-only from the first byte, through a temporary file of its own name that is removed when the write fails,
 * every other key and number kept as written.
 */
public final class TrustedFolders {
    private TrustedFolders() {}

    /** Records {@code trusted} for {@code folder}; the file need not exist yet. */
    public static void record(Path userSettings, Path folder, boolean trusted) throws IOException {
        ObjectNode root = SettingsFileEdit.read(userSettings);
        SettingsFileEdit.object(root, FolderTrust.KEY)
                .put(FolderTrust.realPath(folder).toString(), trusted);
        SettingsFileEdit.write(userSettings, root, true);
    }
}
