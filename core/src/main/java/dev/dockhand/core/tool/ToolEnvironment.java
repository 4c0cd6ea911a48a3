package dev.dockhand.core.tool;

import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.sandbox.Sandbox;
import java.nio.file.Path;

/** What stays the same for every tool call of a session: where files are, where commands run, output budgets. */
public record ToolEnvironment(Workspace workspace, Sandbox sandbox, OutputLimits limits, Path outputDir) {}
