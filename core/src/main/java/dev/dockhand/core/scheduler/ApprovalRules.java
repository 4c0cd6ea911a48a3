package dev.dockhand.core.scheduler;

import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.ToolKind;
import java.util.Map;
import java.util.Objects;

/**
 * What needs the user's explicit yes in every approval mode: writes to protected paths, and calls of the kinds in
 * {@code explicitKinds}, each with the sentence that says why (the CLI puts FETCH there for unattended yolo runs that
 * did not name web_fetch).
 */
public record ApprovalRules(ProtectedPaths protectedPaths, Map<ToolKind, String> explicitKinds) {
    public static final ApprovalRules DEFAULT = new ApprovalRules(ProtectedPaths.defaults(), Map.of());

    public ApprovalRules {
        Objects.requireNonNull(protectedPaths, "protectedPaths");
        explicitKinds = Map.copyOf(explicitKinds);
    }
}
