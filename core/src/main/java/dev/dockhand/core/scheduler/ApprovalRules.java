package dev.dockhand.core.scheduler;

import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.ToolKind;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the user decided ahead of the calls. What needs their explicit yes in every approval mode: writes to protected
 * paths, and calls of the kinds in {@code explicitKinds}, each with the sentence that says why (the CLI puts FETCH
 * there for unattended yolo runs that did not name web_fetch). And the tools whose calls run without a question
 * ({@code allowedTools}, from {@code --allowed-tools}) in every mode but plan, as if allowed for the session: they
 * answer for the mode's question, never for an explicit one. And the {@link PermissionRules} of the settings, which
 * come before all of that (see {@link CoreToolScheduler}).
 */
public record ApprovalRules(
        ProtectedPaths protectedPaths,
        Map<ToolKind, String> explicitKinds,
        Set<String> allowedTools,
        PermissionRules permissions) {
    public static final ApprovalRules DEFAULT = new ApprovalRules(ProtectedPaths.defaults(), Map.of());

    public ApprovalRules {
        Objects.requireNonNull(protectedPaths, "protectedPaths");
        explicitKinds = Map.copyOf(explicitKinds);
        allowedTools = Set.copyOf(allowedTools);
        Objects.requireNonNull(permissions, "permissions");
    }

    public ApprovalRules(ProtectedPaths protectedPaths, Map<ToolKind, String> explicitKinds, Set<String> allowedTools) {
        this(protectedPaths, explicitKinds, allowedTools, PermissionRules.NONE);
    }

    public ApprovalRules(ProtectedPaths protectedPaths, Map<ToolKind, String> explicitKinds) {
        this(protectedPaths, explicitKinds, Set.of());
    }
}
