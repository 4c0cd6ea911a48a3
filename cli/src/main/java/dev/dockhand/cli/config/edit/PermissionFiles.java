package dev.dockhand.cli.config.edit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.config.FolderTrust;
import dev.dockhand.core.scheduler.PermissionRule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Changes the permission rules in a settings file and nothing else: every other key and value comes back as it was
 * (numbers keep their digits, keys their order), the file is written beside itself and moved into place, so a crash
 * leaves the old file or the new one, and the new one is readable by its owner only. "Always allow in this project"
 * adds to {@code permissions.projects["<folder's real path>"].allow} of the user's own file; {@code /permissions}
 * removes from wherever a rule was written.
 */
public final class PermissionFiles {

    private PermissionFiles() {}

    /** Adds allow rules for {@code folder} to the user's file; a rule already there is not added twice. */
    public static void allowInFolder(Path userSettings, Path folder, List<String> rules) throws IOException {
        ObjectNode root = SettingsFileEdit.read(userSettings);
        ObjectNode block = SettingsFileEdit.object(
                SettingsFileEdit.object(SettingsFileEdit.object(root, "permissions"), "projects"), key(folder));
        ArrayNode allow = SettingsFileEdit.array(block, PermissionRule.Decision.ALLOW.key());
        for (String rule : rules) {
            boolean present = false;
            for (JsonNode existing : allow) {
                present |= existing.asText().equals(rule);
            }
            if (!present) {
                allow.add(rule);
            }
        }
        SettingsFileEdit.write(userSettings, root, true);
    }

    /**
     * Removes one rule from {@code permissions} of {@code file}, or from its block for {@code folder}. Returns whether
     * it was there. {@code usersOwn} says whether {@code file} is the user's settings file rather than a project's.
     */
    public static boolean remove(
            Path file, boolean usersOwn, Optional<Path> folder, PermissionRule.Decision decision, String rule)
            throws IOException {
        ObjectNode root = SettingsFileEdit.read(file);
        JsonNode block = root.path("permissions");
        if (folder.isPresent()) {
            block = block.path("projects").path(key(folder.get()));
        }
        if (!(block.get(decision.key()) instanceof ArrayNode list)) {
            return false;
        }
        boolean removed = false;
        for (int i = list.size() - 1; i >= 0; i--) {
            if (written(decision, list.get(i).asText()).equals(rule)) {
                list.remove(i);
                removed = true;
            }
        }
        if (removed) {
            SettingsFileEdit.write(file, root, usersOwn);
        }
        return removed;
    }

    /** A rule as its text reads once parsed, so spacing inside it does not hide it from removal. */
    private static String written(PermissionRule.Decision decision, String text) {
        try {
            return PermissionRule.parse(decision, text, "").text();
        } catch (IllegalArgumentException e) {
            return text.strip();
        }
    }

    private static String key(Path folder) {
        return FolderTrust.realPath(folder).toString();
    }
}
