package dev.dockhand.cli.config.edit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.environment.CliEnvironment;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Adds and removes one entry of {@code mcpServers} in a settings file, for {@code dockhand mcp add} and {@code remove}.
 * Every other key and value of the file is written back as it was read (numbers digit for digit; the layout becomes
 * two-space JSON), the result is checked to be a settings file Dockhand reads before it replaces the old one, and it
 * replaces it in one move, so a crash leaves the old file or the new one. The user's file is owner-only from its first
 * byte: it holds tokens.
 */
public final class McpServerEntries {
    static final String KEY = "mcpServers";

    /** Which settings file. */
    public enum Scope {
        /** {@code ~/.dockhand/settings.json}: the user's, in every folder. */
        USER,
        /** {@code <folder>/.dockhand/settings.json}: the project's, counted only in a trusted folder. */
        PROJECT;

        public Path file(CliEnvironment environment) {
            return this == USER
                    ? environment.settingsHome().resolve("settings.json")
                    : environment.workingDirectory().resolve(".dockhand").resolve("settings.json");
        }
    }

    private McpServerEntries() {}

    /** Whether {@code file} has a server {@code name}. */
    public static boolean has(Path file, String name) throws IOException {
        JsonNode servers = SettingsFileEdit.read(file).get(KEY);
        return servers != null && servers.has(name);
    }

    /**
     * Writes the server {@code name} into {@code file}, which need not exist yet; {@code usersOwn} says whether it is
     * the user's settings file rather than a project's.
     *
     * @throws IOException with one sentence when the file cannot be read, is not a JSON object, or would not be a
     *     valid settings file afterwards
     */
    public static void add(Path file, String name, ObjectNode entry, boolean usersOwn) throws IOException {
        ObjectNode root = SettingsFileEdit.read(file);
        JsonNode servers = root.get(KEY);
        ObjectNode all = servers instanceof ObjectNode object ? object : root.putObject(KEY);
        all.set(name, entry);
        SettingsFileEdit.write(file, root, usersOwn);
    }

    /** Removes the server {@code name} from {@code file}; false when it had none, and then the file is untouched. */
    public static boolean remove(Path file, String name, boolean usersOwn) throws IOException {
        ObjectNode root = SettingsFileEdit.read(file);
        if (!(root.get(KEY) instanceof ObjectNode servers) || !servers.has(name)) {
            return false;
        }
        servers.remove(name);
        SettingsFileEdit.write(file, root, usersOwn);
        return true;
    }
}
