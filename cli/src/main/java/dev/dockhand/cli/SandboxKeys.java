package dev.dockhand.cli;

import dev.dockhand.core.settings.Settings;
import dev.dockhand.sandbox.DockerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;

/** The sandbox block of the settings, as {@link Configuration} layers it; kept apart for its length. */
final class SandboxKeys {
    private final Configuration configuration;
    private final DockhandCommand command;
    private final CommandLine.ParseResult parsed;

    SandboxKeys(Configuration configuration, DockhandCommand command, CommandLine.ParseResult parsed) {
        this.configuration = configuration;
        this.command = command;
        this.parsed = parsed;
    }

    void apply() {
        key(
                "sandbox.kind",
                "--sandbox",
                s -> Configuration.sandbox(s).kind(),
                value -> command.sandbox = value,
                () -> command.sandbox,
                (value, without) -> value.strip().equals("docker") || value.equals(without));
        key(
                "sandbox.image",
                "--sandbox-image",
                s -> Configuration.sandbox(s).image(),
                value -> command.sandboxImage = value,
                () -> command.sandboxImage,
                ProjectRule.userOnly());
        key(
                "sandbox.network",
                "--sandbox-network",
                s -> Configuration.sandbox(s).network(),
                value -> command.sandboxNetwork = value,
                () -> command.sandboxNetwork,
                (value, without) -> value.strip().equals("none") || value.equals(without));
        key(
                "sandbox.memory",
                "--sandbox-memory",
                s -> Configuration.sandbox(s).memory(),
                value -> command.sandboxMemory = Configuration.size(value),
                () -> command.sandboxMemory,
                (value, without) -> Objects.requireNonNullElse(DockerSettings.parseSize(value), Long.MAX_VALUE)
                        <= Objects.requireNonNullElse(
                                DockerSettings.parseSize(String.valueOf(without)), Long.MAX_VALUE));
        key(
                "sandbox.cpus",
                "--sandbox-cpus",
                s -> Configuration.sandbox(s).cpus(),
                value -> command.sandboxCpus = value,
                () -> command.sandboxCpus,
                ProjectRule.<Double>atMost());
        key(
                "sandbox.pids",
                "--sandbox-pids",
                s -> Configuration.sandbox(s).pids(),
                value -> command.sandboxPids = value,
                () -> command.sandboxPids,
                ProjectRule.<Long>atMost());
        key(
                "sandbox.env",
                "--sandbox-env",
                s -> Configuration.sandbox(s).env(),
                value -> command.sandboxEnv = new ArrayList<>(value),
                () -> command.sandboxEnv,
                (value, without) -> without instanceof List<?> list && list.containsAll(value));
    }

    private <T> void key(
            String key,
            String option,
            Function<Settings, T> read,
            Consumer<T> write,
            Supplier<Object> current,
            ProjectRule<T> rule) {
        configuration.key(key, option, parsed, Optional.empty(), read, write, current, rule);
    }
}
