package dev.dockhand.cli.headless;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatedInterruptsTest {
    private final Cancellation cancel = new Cancellation();
    private final List<String> asked = new ArrayList<>();
    private final RepeatedInterrupts interrupts = new RepeatedInterrupts(cancel, new RepeatedInterrupts.Exits() {
        @Override
        public void exit(int code) {
            asked.add("exit " + code);
        }

        @Override
        public void halt(int code) {
            asked.add("halt " + code);
        }
    });

    @Test
    void theFirstCtrlCCancelsTheTurnAndEndsNothing() {
        interrupts.interrupted();

        assertEquals(List.of(true, List.of()), List.of(cancel.isCancelled(), asked));
    }

    @Test
    void theSecondExitsThroughTheShutdownHooksSoCommandsAndTheContainerAreCleanedUp() {
        interrupts.interrupted();
        interrupts.interrupted();

        assertEquals(List.of("exit 130"), asked);
    }

    @Test
    void aThirdWhileTheHooksRunHalts() {
        interrupts.interrupted();
        interrupts.interrupted();
        interrupts.interrupted();

        assertEquals(List.of("exit 130", "halt 130"), asked);
    }
}
