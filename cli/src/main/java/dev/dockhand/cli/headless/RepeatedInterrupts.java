package dev.dockhand.cli.headless;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Cancellation;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What each Ctrl-C of a single-shot run does. The first cancels the turn. A second, if the first did not end the run,
 * exits without waiting for the turn, but through the shutdown hooks: they kill the commands still running and their
 * background jobs, remove the container, the protected paths' placeholders and half-written files, each within its
 * own bound. Halting there would leave all of that behind, still writing into the workspace. A third, while the hooks
 * run, halts.
 */
final class RepeatedInterrupts {
    private final Cancellation cancel;
    private final Exits exits;
    private final AtomicInteger count = new AtomicInteger();

    RepeatedInterrupts(Cancellation cancel, Exits exits) {
        this.cancel = cancel;
        this.exits = exits;
    }

    /** One Ctrl-C; on the JVM's signal thread, a new one each time. */
    void interrupted() {
        switch (count.incrementAndGet()) {
            case 1 -> cancel.cancel();
            case 2 -> exits.exit(ExitCodes.INTERRUPTED);
            default -> exits.halt(ExitCodes.INTERRUPTED);
        }
    }

    /** How the JVM ends; a test stands in to see which way is asked for. */
    interface Exits {
        Exits SYSTEM = new Exits() {
            @Override
            public void exit(int code) {
                System.exit(code);
            }

            @Override
            public void halt(int code) {
                Runtime.getRuntime().halt(code);
            }
        };

        /** Ends the JVM after its shutdown hooks. */
        void exit(int code);

        /** Ends the JVM at once. */
        void halt(int code);
    }
}
