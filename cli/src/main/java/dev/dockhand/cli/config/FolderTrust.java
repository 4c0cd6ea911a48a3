package dev.dockhand.cli.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.settings.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Whether the user trusts a folder's own settings ({@code <folder>/.dockhand/settings.json}): until they do, that
 * file can only narrow what the user's settings and flags allow. Decisions live in the user's own settings file,
 * under {@code trustedFolders}, keyed by the folder's real path ({@code true} trusted, {@code false} not), and are
 * made by the user only: {@code dockhand trust}, {@code dockhand untrust}, the REPL's question, or
 * {@code --trust-project} for one run.
 */
public final class FolderTrust {
    static final String KEY = "trustedFolders";

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

    /**
     * Records the user's decision about {@code folder} in {@code userSettings}, keeping everything else the file
     * holds; written to a temporary file and moved into place, so a crash leaves the old file or the new one.
     */
    public static void record(Path userSettings, Path folder, boolean trusted) throws IOException {
        ObjectNode root = Json.object();
        if (Files.isRegularFile(userSettings)) {
            JsonNode existing = Json.MAPPER.readTree(Files.readString(userSettings));
            if (existing instanceof ObjectNode object) {
                root = object;
            }
        }
        JsonNode folders = root.get(KEY);
        ObjectNode decisions = folders instanceof ObjectNode object ? object : root.putObject(KEY);
        decisions.put(realPath(folder).toString(), trusted);
        Files.createDirectories(userSettings.toAbsolutePath().getParent());
        Path temp = userSettings.resolveSibling(userSettings.getFileName() + ".tmp");
        Files.writeString(
                temp,
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n",
                StandardCharsets.UTF_8);
        try {
            Files.move(temp, userSettings, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, userSettings, StandardCopyOption.REPLACE_EXISTING);
        }
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
