package dev.dockhand.cli.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.session.AgentSession;
import java.time.Duration;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

public class WallClockTest {
    @Test
    void compactTimestampsArePaddedSoTheySortAsText() {
        assertEquals("20260305-070809", WallClock.compact(LocalDateTime.of(2026, 3, 5, 7, 8, 9)));
        assertEquals("20261122-235959", WallClock.compact(LocalDateTime.of(2026, 11, 22, 23, 59, 59)));
    }

    @Test
    void nowIsTheLocalTimeThatJavaTimeReports() {
        LocalDateTime before = LocalDateTime.now().withNano(0);
        LocalDateTime now = WallClock.now();
        LocalDateTime after = LocalDateTime.now();
        assertTrue(!now.isBefore(before) && !now.isAfter(after), before + " <= " + now + " <= " + after);
        assertEquals(0, now.getNano());
        assertTrue(Duration.between(now, after).getSeconds() < 2);
    }

    @Test
    void sessionIdsAreATimestampAndEightHexDigits() {
        String id = AgentSession.newSessionId();
        assertTrue(id.matches("\\d{8}-\\d{6}-[0-9a-f]{8}"), id);
        assertTrue(!id.equals(AgentSession.newSessionId()), "two ids in one second differ by their tail");
    }
}
