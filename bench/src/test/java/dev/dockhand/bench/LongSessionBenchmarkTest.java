package dev.dockhand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LongSessionBenchmarkTest {
    private static final long MS = 1_000_000;

    private static LongSessionBenchmark.Exchange main(int bytes, long arrivedMs, long answeredMs) {
        return new LongSessionBenchmark.Exchange(false, bytes, arrivedMs * MS, answeredMs * MS);
    }

    private static LongSessionBenchmark.Exchange summary(long arrivedMs, long answeredMs) {
        return new LongSessionBenchmark.Exchange(true, 500, arrivedMs * MS, answeredMs * MS);
    }

    @Test
    void aRoundIsTheGapBetweenTwoRequestsLessTheSummaryRequestsInBetween() {
        List<LongSessionBenchmark.Exchange> exchanges = List.of(
                main(100, 0, 1), main(200, 3, 4), summary(5, 9), summary(10, 12), main(150, 14, 15), main(300, 16, 17));

        assertEquals(
                new LongSessionBenchmark.Result(List.of(2.0, 4.0, 1.0), List.of(2), List.of(4.0, 2.0), 7, 9, 100, 300),
                LongSessionBenchmark.Result.of(exchanges, 3, 7, 9));
    }

    @Test
    void aSessionThatEndedEarlyIsNotMeasured() {
        List<LongSessionBenchmark.Exchange> exchanges = List.of(main(100, 0, 1), main(200, 3, 4));

        IllegalStateException failure =
                assertThrows(IllegalStateException.class, () -> LongSessionBenchmark.Result.of(exchanges, 3, 0, 0));
        assertEquals("the session made 1 rounds, not 3 (see its transcript)", failure.getMessage());
    }

    @Test
    void theLiveHeapIsTheHistogramsTotalOrUnknownWhenJcmdCouldNotAttach() {
        String histogram = String.join(
                "\n",
                "12345:",
                " num     #instances         #bytes  class name (module)",
                "-------------------------------------------------------",
                "   1:         20481        2110448  [B (java.base@17.0.15)",
                "   2:          3105         367640  java.lang.Class (java.base@17.0.15)",
                "Total         23586        2478088",
                "");

        assertEquals(2478088, LongSessionBenchmark.histogramTotal(histogram));
        assertEquals(
                -1,
                LongSessionBenchmark.histogramTotal(
                        "12345:\ncom.sun.tools.attach.AttachNotSupportedException: Unable to open socket file\n"));
    }
}
