package dev.dockhand.core.scheduler;

import static dev.dockhand.core.scheduler.ApprovalPolicy.Verdict.ALLOW;
import static dev.dockhand.core.scheduler.ApprovalPolicy.Verdict.ASK;
import static dev.dockhand.core.scheduler.ApprovalPolicy.Verdict.DENY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.ToolKind;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApprovalPolicyTest {

    /** Mode, kind, verdict without a session approval, verdict with one. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of(ApprovalMode.PLAN, ToolKind.READ, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.PLAN, ToolKind.EDIT, DENY, DENY),
                Arguments.of(ApprovalMode.PLAN, ToolKind.EXECUTE, DENY, DENY),
                Arguments.of(ApprovalMode.PLAN, ToolKind.FETCH, DENY, DENY),
                Arguments.of(ApprovalMode.DEFAULT, ToolKind.READ, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.DEFAULT, ToolKind.EDIT, ASK, ALLOW),
                Arguments.of(ApprovalMode.DEFAULT, ToolKind.EXECUTE, ASK, ALLOW),
                Arguments.of(ApprovalMode.DEFAULT, ToolKind.FETCH, ASK, ALLOW),
                Arguments.of(ApprovalMode.AUTO_EDIT, ToolKind.READ, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.AUTO_EDIT, ToolKind.EDIT, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.AUTO_EDIT, ToolKind.EXECUTE, ASK, ALLOW),
                Arguments.of(ApprovalMode.AUTO_EDIT, ToolKind.FETCH, ASK, ALLOW),
                Arguments.of(ApprovalMode.YOLO, ToolKind.READ, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.YOLO, ToolKind.EDIT, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.YOLO, ToolKind.EXECUTE, ALLOW, ALLOW),
                Arguments.of(ApprovalMode.YOLO, ToolKind.FETCH, ALLOW, ALLOW));
    }

    @ParameterizedTest(name = "{0} {1}: {2}, allowed for session: {3}")
    @MethodSource("table")
    void decidesByModeKindAndSessionApproval(
            ApprovalMode mode, ToolKind kind, ApprovalPolicy.Verdict fresh, ApprovalPolicy.Verdict allowedForSession) {
        assertEquals(fresh, ApprovalPolicy.decide(kind, mode, false));
        assertEquals(allowedForSession, ApprovalPolicy.decide(kind, mode, true));
    }

    @Test
    void tableCoversEveryModeAndKindOnce() {
        Set<List<Object>> pairs =
                table().map(row -> List.of(row.get()[0], row.get()[1])).collect(Collectors.toSet());
        assertEquals(ApprovalMode.values().length * ToolKind.values().length, pairs.size());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("table")
    void anExplicitCallAsksInEveryModeButPlanWhichRefusesChanges(ApprovalMode mode, ToolKind kind) {
        ApprovalPolicy.Verdict expected = mode == ApprovalMode.PLAN && kind != ToolKind.READ ? DENY : ASK;

        assertEquals(expected, ApprovalPolicy.decide(kind, mode, false, ApprovalPolicy.Explicit.REQUIRED));
        assertEquals(expected, ApprovalPolicy.decide(kind, mode, true, ApprovalPolicy.Explicit.REQUIRED));
    }
}
