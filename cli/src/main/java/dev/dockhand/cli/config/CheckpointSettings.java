package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.nio.file.Path;

/**
 * The {@code checkpoints} block: the user's own settings, with the project's over them only in a trusted folder, so a
 * repository cannot switch off the user's way back from what the model did.
 *
 * @param enabled false: no snapshot is taken at all
 * @param maxFileSize files larger than this many bytes are not recorded
 */
public record CheckpointSettings(boolean enabled, long maxFileSize) {
    public static final CheckpointSettings DEFAULT =
            new CheckpointSettings(true, CheckpointStore.DEFAULT_MAX_FILE_SIZE);

    public static CheckpointSettings load(CliEnvironment environment) {
        Path userFile = environment.settingsHome().resolve("settings.json");
        Path projectFile = environment.workingDirectory().resolve(".dockhand/settings.json");
        try {
            Settings user = SettingsFiles.read(userFile, Option.schema());
            CheckpointSettings settings = DEFAULT.over(user.checkpoints(), userFile);
            if (FolderTrust.of(user, environment.workingDirectory()) == FolderTrust.Decision.TRUSTED) {
                settings = settings.over(
                        SettingsFiles.read(projectFile, Option.schema()).checkpoints(), projectFile);
            }
            return settings;
        } catch (SettingsException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    private CheckpointSettings over(Settings.Checkpoints block, Path file) {
        if (block == null) {
            return this;
        }
        if (block.maxFileSize() != null && block.maxFileSize() < 1) {
            throw new DockhandException(
                    ExitCodes.CONFIGURATION,
                    file + ": checkpoints.maxFileSize must be at least 1 byte, was " + block.maxFileSize() + ".");
        }
        return new CheckpointSettings(
                block.enabled() == null ? enabled : block.enabled(),
                block.maxFileSize() == null ? maxFileSize : block.maxFileSize());
    }
}
