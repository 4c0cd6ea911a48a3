package dev.dockhand.core.scheduler;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** How much the user lets run without being asked. See {@link ApprovalPolicy} for the whole table. */
public enum ApprovalMode {
    /** Only {@code READ} tools run; every other call is refused with an explanation, nobody is asked. */
    PLAN("plan"),
    /** {@code READ} tools run; every other call asks the user (or is refused when nobody can be asked). */
    DEFAULT("default"),
    /** {@code READ} and {@code EDIT} tools run; {@code EXECUTE} and {@code FETCH} ask. */
    AUTO_EDIT("auto-edit"),
    /** Everything runs without asking; the sandbox is the only guard. Meant for CI and throw-away workspaces. */
    YOLO("yolo");

    private final String cliName;

    ApprovalMode(String cliName) {
        this.cliName = cliName;
    }

    /** The spelling used on the command line and in settings. */
    public String cliName() {
        return cliName;
    }

    public static Optional<ApprovalMode> parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        return Arrays.stream(values())
                .filter(mode -> mode.cliName.equals(wanted))
                .findFirst();
    }

    public static String choices() {
        return Arrays.stream(values()).map(ApprovalMode::cliName).collect(Collectors.joining("|"));
    }
}
