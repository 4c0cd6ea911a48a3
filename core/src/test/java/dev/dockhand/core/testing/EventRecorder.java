package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Records agent events in order, for whole-value assertions on what a turn emitted. */
public final class EventRecorder implements AgentEventSink {
    private final BlockingQueue<AgentEvent> events = new LinkedBlockingQueue<>();
    private final List<AgentEvent> all = new ArrayList<>();

    @Override
    public void accept(AgentEvent event) {
        synchronized (all) {
            all.add(event);
        }
        events.add(event);
    }

    /** Every event so far, in order. */
    public List<AgentEvent> all() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** The events of one type, in order. */
    public <T extends AgentEvent> List<T> ofType(Class<T> type) {
        return all().stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Waits for the next event matching {@code filter} (others are skipped). */
    public AgentEvent awaitNext(Predicate<AgentEvent> filter) throws InterruptedException {
        while (true) {
            AgentEvent event = events.poll(60, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("no matching event within 60 s");
            }
            if (filter.test(event)) {
                return event;
            }
        }
    }

    public void assertNext(AgentEvent expected) throws InterruptedException {
        AgentEvent event = events.poll(60, TimeUnit.SECONDS);
        assertEquals(expected, event);
    }
}
