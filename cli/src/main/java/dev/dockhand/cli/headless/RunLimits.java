package dev.dockhand.cli.headless;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.scheduler.ToolCallStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Bounds an unattended run: past {@code --max-wall-time}, or when a call beyond {@code --max-tool-calls} is
 * scheduled, the turn is cancelled (nothing more starts, the conversation stays valid) and the run says which
 * limit stopped it.
 */
public final class RunLimits implements AgentEventSink, AutoCloseable {
    private final Optional<Duration> wallTime;
    private final OptionalInt maxToolCalls;
    private final Cancellation cancel;
    private final AutoCloseable timer;
    private int scheduled;
    private volatile boolean wallTimeReached;
    private volatile boolean toolCallsReached;

    /** What counts {@code --max-wall-time} down: a timer, unless a test ends the time at a point it chooses. */
    @FunctionalInterface
    public interface WallTimer {
        /** The system's clock, on a daemon thread of its own. */
        WallTimer SYSTEM = (limit, expire) -> {
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "dockhand-wall-time");
                thread.setDaemon(true);
                return thread;
            });
            timer.schedule(expire, limit.toMillis(), TimeUnit.MILLISECONDS);
            return timer::shutdownNow;
        };

        /** Runs {@code expire} once {@code limit} has passed, unless what it returns was closed before. */
        AutoCloseable start(Duration limit, Runnable expire);
    }

    RunLimits(Optional<Duration> wallTime, OptionalInt maxToolCalls, Cancellation cancel, WallTimer clock) {
        this.wallTime = wallTime;
        this.maxToolCalls = maxToolCalls;
        this.cancel = cancel;
        this.timer = wallTime.map(limit -> clock.start(limit, () -> {
                    wallTimeReached = true;
                    cancel.cancel();
                }))
                .orElse(null);
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (event instanceof AgentEvent.SubAgentEvent nested) {
            // Sub-agents' calls count toward --max-tool-calls like the main agent's.
            accept(nested.event());
        } else if (event instanceof AgentEvent.ToolCallUpdated updated
                && updated.status() == ToolCallStatus.SCHEDULED
                && maxToolCalls.isPresent()
                && ++scheduled > maxToolCalls.getAsInt()) {
            toolCallsReached = true;
            cancel.cancel();
        }
    }

    /** Which limit stopped the run, if one did. */
    Optional<RunReport.RunFailure> reached() {
        if (wallTimeReached) {
            return Optional.of(new RunReport.RunFailure(
                    "wall_time_limit",
                    "stopped after the --max-wall-time of " + Rendering.duration(wallTime.get()) + "."));
        }
        if (toolCallsReached) {
            return Optional.of(new RunReport.RunFailure(
                    "tool_call_limit",
                    "stopped: the model asked for more than the" + " --max-tool-calls of " + maxToolCalls.getAsInt()
                            + " tool calls."));
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        if (timer != null) {
            try {
                timer.close();
            } catch (Exception e) {
                // Only the count-down stops here; the run's ending does not depend on it.
                org.slf4j.LoggerFactory.getLogger(RunLimits.class).warn("the wall-time timer did not stop", e);
            }
        }
    }
}
