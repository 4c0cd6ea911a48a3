package dev.dockhand.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.config.Option;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.config.edit.McpServerEntries;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.session.McpListSandbox;
import dev.dockhand.cli.session.McpReport;
import dev.dockhand.core.Json;
import dev.dockhand.core.tool.ProtectedPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code dockhand mcp add|list|remove}: the MCP servers of the settings files, added and removed without editing JSON
 * by hand, and listed with whether each starts and how many tools it offers (declared by {@link #declare}).
 */
final class McpCommand {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private McpCommand() {}

    /** Adds {@code mcp} and its three subcommands to the {@code dockhand} command. */
    static void declare(CommandSpec root, DockhandCommand parent) {
        CommandSpec mcp = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> {
            throw new CommandLine.ParameterException(
                    root.commandLine().getSubcommands().get("mcp"), "Name what to do: add, list or remove.");
        });
        mcp.usageMessage().description("Add, list or remove MCP servers (see docs/mcp.md).");
        root.addSubcommand("mcp", mcp);

        Add add = new Add(parent);
        add.spec = CommandSpec.wrapWithoutInspection(add);
        add.spec
                .usageMessage()
                .description(
                        "Add an MCP server to the settings:",
                        "  dockhand mcp add NAME -- COMMAND [ARGS…]        a program spoken to over stdio",
                        "  dockhand mcp add --transport http NAME URL     a server spoken to over Streamable HTTP");
        add.spec.addOption(OptionSpec.builder("--transport", "-t")
                .paramLabel("stdio|http|sse")
                .type(String.class)
                .defaultValue("stdio")
                .description("How Dockhand speaks to the server (default: stdio).")
                .build());
        add.spec.addOption(scope());
        add.spec.addOption(OptionSpec.builder("-e", "--env")
                .paramLabel("KEY=VALUE")
                .type(List.class)
                .auxiliaryTypes(String.class)
                .description("An environment variable for a stdio server's process (repeatable).")
                .build());
        add.spec.addOption(OptionSpec.builder("-H", "--header")
                .paramLabel("'Header: value'")
                .type(List.class)
                .auxiliaryTypes(String.class)
                .description("A header sent with each request to an HTTP server (repeatable).")
                .build());
        add.spec.addOption(OptionSpec.builder("--sandbox")
                .arity("0")
                .type(boolean.class)
                .description("Run the (stdio) server inside the session's Docker sandbox, not on this machine.")
                .build());
        add.spec.addPositional(PositionalParamSpec.builder()
                .paramLabel("NAME COMMAND|URL")
                // One or more: picocli stops a positional at "--" once its minimum is met, and the rest joins it.
                .arity("1..*")
                .type(List.class)
                .auxiliaryTypes(String.class)
                .description("The server's name, then its command and arguments (after --) or its URL.")
                .build());
        mcp.addSubcommand("add", add.spec);

        Lister list = new Lister(parent);
        list.spec = CommandSpec.wrapWithoutInspection(list);
        list.spec
                .usageMessage()
                .description("Start every configured MCP server and show whether it connected and its tool count.");
        mcp.addSubcommand("list", list.spec);

        Remove remove = new Remove(parent);
        remove.spec = CommandSpec.wrapWithoutInspection(remove);
        remove.spec.usageMessage().description("Remove an MCP server from the settings.");
        remove.spec.addOption(OptionSpec.builder("--scope", "-s")
                .paramLabel("user|project")
                .type(String.class)
                .description("The settings file to remove it from (default: the one that has it).")
                .build());
        remove.spec.addPositional(PositionalParamSpec.builder()
                .paramLabel("NAME")
                .arity("1")
                .type(String.class)
                .build());
        mcp.addSubcommand("remove", remove.spec);
    }

    private static OptionSpec scope() {
        return OptionSpec.builder("--scope", "-s")
                .paramLabel("user|project")
                .type(String.class)
                .defaultValue("user")
                .description("user: ~/.dockhand/settings.json, in every folder (default); project:"
                        + " .dockhand/settings.json here, used only once the folder is trusted.")
                .build();
    }

    private static McpServerEntries.Scope scopeOf(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "user" -> McpServerEntries.Scope.USER;
            case "project" -> McpServerEntries.Scope.PROJECT;
            default -> throw new DockhandException(
                    ExitCodes.USAGE, "--scope " + value + " is not a scope; use user or project.");
        };
    }

    /** Runs {@code body}, turning a DockhandException into its line on stderr and its exit code. */
    private static int reporting(CommandSpec spec, Callable<Integer> body) {
        PrintWriter err = spec.commandLine().getErr();
        try {
            return body.call();
        } catch (DockhandException e) {
            err.println("dockhand: " + e.getMessage());
            err.flush();
            return e.exitCode();
        } catch (IOException e) {
            err.println("dockhand: " + e.getMessage() + ".");
            err.flush();
            return ExitCodes.CONFIGURATION;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code dockhand mcp add}. */
    static final class Add implements Callable<Integer> {
        private final DockhandCommand parent;
        CommandSpec spec;

        Add(DockhandCommand parent) {
            this.parent = parent;
        }

        @Override
        public Integer call() {
            return reporting(spec, this::add);
        }

        private int add() throws IOException {
            CliEnvironment environment = parent.environment();
            List<String> words = spec.positionalParameters().get(0).getValue();
            String transport = spec.findOption("--transport").<String>getValue().toLowerCase(Locale.ROOT);
            McpServerEntries.Scope scope = scopeOf(spec.findOption("--scope").getValue());
            List<String> env = valueOrEmpty("--env");
            List<String> headers = valueOrEmpty("--header");
            boolean sandboxed = Boolean.TRUE.equals(spec.findOption("--sandbox").getValue());
            String name = words.get(0);
            if (words.size() < 2) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "Name the server's command after -- (dockhand mcp add " + name
                                + " -- COMMAND ARGS…) or its URL (dockhand mcp add --transport http " + name
                                + " URL).");
            }
            if (!NAME.matcher(name).matches()) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "'" + name + "' cannot name an MCP server; use letters, digits, '.', '_' and '-'.");
            }
            ObjectNode entry =
                    switch (transport) {
                        case "stdio" -> stdio(words, env, headers);
                        case "http", "sse" -> {
                            if (sandboxed) {
                                throw new DockhandException(
                                        ExitCodes.USAGE,
                                        "--sandbox is for servers Dockhand starts (stdio); an HTTP server runs"
                                                + " wherever its URL points.");
                            }
                            yield http(transport, words, env, headers);
                        }
                        default -> throw new DockhandException(
                                ExitCodes.USAGE,
                                "--transport " + transport + " is not a transport; use stdio, http or sse.");
                    };
            if (sandboxed) {
                entry.put("sandbox", true);
            }
            Path file = scope.file(environment);
            if (McpServerEntries.has(file, name)) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "There is already an MCP server '" + name + "' in " + file + "; remove it first (dockhand mcp"
                                + " remove " + name + ").");
            }
            try {
                McpServerEntries.add(file, name, entry, scope == McpServerEntries.Scope.USER);
            } catch (IOException e) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION, "Cannot add the MCP server to " + file + ": " + e.getMessage() + ".");
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("Added the MCP server '" + name + "' to " + file + ".");
            out.flush();
            return ExitCodes.OK;
        }

        /** The entry of a server Dockhand starts: its command, arguments and environment. */
        private static ObjectNode stdio(List<String> words, List<String> env, List<String> headers) {
            ObjectNode entry = Json.object();
            if (!headers.isEmpty()) {
                throw new DockhandException(ExitCodes.USAGE, "-H is for HTTP servers (--transport http).");
            }
            entry.put("type", "stdio");
            entry.put("command", words.get(1));
            if (words.size() > 2) {
                words.subList(2, words.size()).forEach(entry.putArray("args")::add);
            }
            if (!env.isEmpty()) {
                ObjectNode variables = entry.putObject("env");
                for (String pair : env) {
                    int equals = pair.indexOf('=');
                    if (equals <= 0) {
                        throw new DockhandException(ExitCodes.USAGE, "-e " + pair + " is not KEY=VALUE.");
                    }
                    variables.put(pair.substring(0, equals), pair.substring(equals + 1));
                }
            }
            return entry;
        }

        /** The entry of a server reached at a URL, with the headers of its requests. */
        private static ObjectNode http(String transport, List<String> words, List<String> env, List<String> headers) {
            ObjectNode entry = Json.object();
            if (!env.isEmpty()) {
                throw new DockhandException(
                        ExitCodes.USAGE, "-e is for servers Dockhand starts (stdio); HTTP servers take -H.");
            }
            if (words.size() != 2) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "An HTTP server takes one URL after its name; got "
                                + String.join(" ", words.subList(1, words.size())) + ".");
            }
            if (!words.get(1).matches("https?://.+")) {
                throw new DockhandException(ExitCodes.USAGE, words.get(1) + " is not an http:// or https:// URL.");
            }
            entry.put("type", transport);
            entry.put("url", words.get(1));
            if (!headers.isEmpty()) {
                ObjectNode values = entry.putObject("headers");
                for (String header : headers) {
                    int colon = header.indexOf(':');
                    if (colon <= 0) {
                        throw new DockhandException(ExitCodes.USAGE, "-H " + header + " is not 'Header: value'.");
                    }
                    values.put(
                            header.substring(0, colon).strip(),
                            header.substring(colon + 1).strip());
                }
            }
            return entry;
        }

        private List<String> valueOrEmpty(String option) {
            List<String> value = spec.findOption(option).getValue();
            return value == null ? List.of() : value;
        }
    }

    /** {@code dockhand mcp list}. */
    static final class Lister implements Callable<Integer> {
        private final DockhandCommand parent;
        CommandSpec spec;

        Lister(DockhandCommand parent) {
            this.parent = parent;
        }

        @Override
        public Integer call() {
            return reporting(spec, () -> {
                PrintWriter err = spec.commandLine().getErr();
                parent.configure();
                parent.configurationNotice().ifPresent(line -> {
                    err.println("dockhand: " + line);
                    err.flush();
                });
                PrintWriter out = spec.commandLine().getOut();
                McpReport.list(
                                parent.mcpServers,
                                parent.environment(),
                                () -> McpListSandbox.open(
                                        RunOptions.sandboxKind(parent.get(Option.SANDBOX)),
                                        RunOptions.dockerSettings(parent),
                                        // The default protected paths: the list only starts the servers and stops them.
                                        ProtectedPaths.defaults(),
                                        parent.environment()),
                                // Text a copy back quotes (paths a server wrote): shown on one line, never obeyed.
                                notice -> {
                                    err.println("dockhand: " + Rendering.printable(notice.replace('\n', ' ')));
                                    err.flush();
                                })
                        .forEach(out::println);
                out.flush();
                return ExitCodes.OK;
            });
        }
    }

    /** {@code dockhand mcp remove}. */
    static final class Remove implements Callable<Integer> {
        private final DockhandCommand parent;
        CommandSpec spec;

        Remove(DockhandCommand parent) {
            this.parent = parent;
        }

        @Override
        public Integer call() {
            return reporting(spec, this::remove);
        }

        private int remove() throws IOException {
            CliEnvironment environment = parent.environment();
            String name = spec.positionalParameters().get(0).getValue();
            String given = spec.findOption("--scope").getValue();
            List<McpServerEntries.Scope> holding = new ArrayList<>();
            for (McpServerEntries.Scope scope : McpServerEntries.Scope.values()) {
                if ((given == null || scope == scopeOf(given)) && McpServerEntries.has(scope.file(environment), name)) {
                    holding.add(scope);
                }
            }
            if (holding.isEmpty()) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "There is no MCP server '" + name + "' in "
                                + (given == null
                                        ? McpServerEntries.Scope.USER.file(environment) + " or "
                                                + McpServerEntries.Scope.PROJECT.file(environment)
                                        : scopeOf(given).file(environment))
                                + ".");
            }
            if (holding.size() > 1) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "Both your settings and the project's have an MCP server '" + name + "'; say which with"
                                + " --scope user or --scope project.");
            }
            Path file = holding.get(0).file(environment);
            try {
                McpServerEntries.remove(file, name, holding.get(0) == McpServerEntries.Scope.USER);
            } catch (IOException e) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION,
                        "Cannot remove the MCP server from " + file + ": " + e.getMessage() + ".");
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("Removed the MCP server '" + name + "' from " + file + ".");
            out.flush();
            return ExitCodes.OK;
        }
    }
}
