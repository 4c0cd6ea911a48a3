package dev.dockhand.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.dockhand.cli.testing.ScriptedServer;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark, not a test (run by {@code scripts/bench}): one long session, {@code dockhand -p} through the real
 * launcher with {@code --sandbox none}, of {@value #ROUNDS} rounds of one {@code read_file} each, every result about 5
 * KB, with a context window small enough that the conversation is compressed several times on the way. The scripted
 * model answers summary requests (those without tools) with a short summary. Dockhand's own time per round is the gap
 * from the end of one reply to the arrival of the next request, less the summary requests in between (the model's
 * time); its heap is what is live after a full collection, taken while the last request waits for its answer.
 */
public final class LongSessionBenchmark {
    static final int ROUNDS = 300;
    /** The heap is looked at after this round too, to show whether it grows with the session. */
    static final int EARLY_HEAP_ROUND = 20;
    /** The window given with --context-window: at the default threshold, 0.7 of it, it fills every ~40 rounds. */
    static final long CONTEXT_WINDOW = 80_000;
    /** About 5 KB as read_file returns it, line numbers included. */
    private static final int RESULT_BYTES = 5 * 1024;

    private LongSessionBenchmark() {}

    /** One request as the model saw it: whether it asked for a summary, its size, and when it came and was answered. */
    record Exchange(boolean summary, int requestBytes, long arrivedNanos, long answeredNanos) {
        long modelNanos() {
            return answeredNanos - arrivedNanos;
        }
    }

    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args.length > 0 ? args[0] : "scripts/dockhand").toAbsolutePath();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : ROUNDS;
        // Another window only to see how Dockhand's time grows with a history that is never compressed.
        long window = args.length > 2 ? Long.parseLong(args[2]) : CONTEXT_WINDOW;
        Path workspace = BenchFiles.temporaryFolder("dockhand-bench-long");
        for (int round = 1; round <= rounds; round++) {
            Files.writeString(workspace.resolve(fileName(round)), fileText(round));
        }
        // One short run first: the launcher's first run after a build records the start-up archive, in a child JVM.
        try (Model warmup = new Model(1)) {
            Process first = start(launcher, workspace, warmup, window);
            first.waitFor(5, TimeUnit.MINUTES);
        }
        Model model = new Model(rounds);
        Process process;
        try {
            process = start(launcher, workspace, model, window);
            model.onHeapLook(() -> liveHeapBytes(jvm(process)));
            if (!process.waitFor(30, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("the long session did not end within 30 minutes");
            }
        } finally {
            model.close();
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("dockhand exited " + process.exitValue() + " in the long session");
        }
        Result result = Result.of(model.exchanges(), rounds, model.earlyHeapBytes, model.liveHeapBytes);
        BenchTable table = result.table();
        System.out.print(table.render());
        Map<String, Object> json = result.json();
        json.put("targets", table.verdicts());
        System.out.println(Json.write(json));
        BenchFiles.deleteTree(workspace);
    }

    private static String fileName(int round) {
        return String.format(java.util.Locale.ROOT, "notes-%03d.txt", round);
    }

    /** Lines of text that read_file returns as about {@link #RESULT_BYTES} with its line numbers. */
    private static String fileText(int round) {
        StringBuilder text = new StringBuilder();
        int line = 1;
        while (text.length() < RESULT_BYTES - 600) {
            text.append("File ")
                    .append(round)
                    .append(", line ")
                    .append(line++)
                    .append(": the quick brown fox jumps over the lazy dog, twice over.\n");
        }
        return text.toString();
    }

    private static Process start(Path launcher, Path workspace, Model model, long window) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                        launcher.toString(),
                        "--sandbox",
                        "none",
                        "--yolo",
                        "--model",
                        "bench",
                        "--base-url",
                        model.baseUrl(),
                        "--max-turns",
                        String.valueOf(Integer.MAX_VALUE),
                        "--context-window",
                        String.valueOf(window),
                        "-p",
                        "Read the notes one by one.")
                .directory(workspace.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("OPENAI_API_KEY", "bench");
        builder.environment()
                .put("DOCKHAND_HOME", workspace.resolve(".dockhand").toString());
        return builder.start();
    }

    /** The JVM the launcher started: itself, as it execs java, unless it waits for a child (an archive recording). */
    private static long jvm(Process launcher) {
        return launcher.descendants()
                .filter(child -> child.info().command().orElse("").endsWith("/java"))
                .findFirst()
                .map(ProcessHandle::pid)
                .orElse(launcher.pid());
    }

    /**
     * The bytes of live objects on the heap of process {@code pid}: {@code jcmd GC.class_histogram} runs a full
     * collection first and totals what survives.
     */
    static long liveHeapBytes(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(
                            Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd",
                            String.valueOf(pid),
                            "GC.class_histogram")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return histogramTotal(out);
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");

    /** The bytes on the histogram's Total line, or -1 when there is none (jcmd could not attach). */
    static long histogramTotal(String histogram) {
        Matcher total = TOTAL.matcher(histogram);
        return total.find() ? Long.parseLong(total.group(1)) : -1;
    }

    /**
     * What the exchanges say: Dockhand's own time in each round (see {@link #of}), the rounds that compressed the
     * conversation, how long the model took over each summary, the live heap after round {@link #EARLY_HEAP_ROUND}
     * and after the last round (-1: not measured), and the first and largest request's size.
     */
    record Result(
            List<Double> roundMillis,
            List<Integer> compressedRounds,
            List<Double> summaryMillis,
            long earlyHeapBytes,
            long heapBytes,
            int firstRequestBytes,
            int largestRequestBytes) {

        /**
         * Round {@code n} (from 1) is the work between the n-th request's reply, a tool call, and the next request:
         * running the tool, recording the result, compressing when due, writing the next request. Summary requests in
         * between are the model's time and are taken out.
         */
        static Result of(List<Exchange> exchanges, int rounds, long earlyHeapBytes, long heapBytes) {
            List<Double> perRound = new ArrayList<>();
            List<Integer> compressed = new ArrayList<>();
            List<Double> summaries = new ArrayList<>();
            Exchange previous = null;
            long modelNanos = 0;
            boolean summarised = false;
            int first = -1;
            int largest = 0;
            for (Exchange exchange : exchanges) {
                if (exchange.summary()) {
                    modelNanos += exchange.modelNanos();
                    summaries.add(exchange.modelNanos() / 1e6);
                    summarised = true;
                    continue;
                }
                first = first < 0 ? exchange.requestBytes() : first;
                largest = Math.max(largest, exchange.requestBytes());
                if (previous != null) {
                    perRound.add((exchange.arrivedNanos() - previous.answeredNanos() - modelNanos) / 1e6);
                    if (summarised) {
                        compressed.add(perRound.size());
                    }
                }
                previous = exchange;
                modelNanos = 0;
                summarised = false;
            }
            if (perRound.size() != rounds) {
                throw new IllegalStateException(
                        "the session made " + perRound.size() + " rounds, not " + rounds + " (see its transcript)");
            }
            return new Result(perRound, compressed, summaries, earlyHeapBytes, heapBytes, first, largest);
        }

        /** The times of rounds {@code from} to {@code to}, both included, counted from 1. */
        List<Double> rounds(int from, int to) {
            return roundMillis.subList(from - 1, to);
        }

        /** Dockhand's own time in the rounds that compressed the conversation. */
        List<Double> compressionRounds() {
            return compressedRounds.stream()
                    .map(round -> roundMillis.get(round - 1))
                    .toList();
        }

        /** The rounds the target compares: 10-20 and the last eleven (290-300 of 300). */
        static final int EARLY_FROM = 10;

        static final int EARLY_TO = 20;

        int lateFrom() {
            return Math.max(roundMillis.size() - 10, EARLY_TO + 1);
        }

        /** Rounds in the middle of the session, long after the code that runs each round was compiled. */
        int middleFrom() {
            return Math.max(roundMillis.size() / 2 - 5, EARLY_TO + 1);
        }

        double earlyGap() {
            return median(rounds(EARLY_FROM, EARLY_TO));
        }

        double lateGap() {
            return median(rounds(lateFrom(), roundMillis.size()));
        }

        double middleGap() {
            return median(rounds(middleFrom(), middleFrom() + 10));
        }

        BenchTable table() {
            int rounds = roundMillis.size();
            int lateFrom = lateFrom();
            double ratio = lateGap() / earlyGap();
            String scope = rounds == ROUNDS ? "" : " (smoke: " + rounds + " rounds, not " + ROUNDS + ")";
            BenchTable table = new BenchTable();
            table.row(
                    "long_session_late_to_early_gap",
                    "long session" + scope + ": Dockhand's time per round, rounds " + lateFrom + "-" + rounds
                            + " against " + EARLY_FROM + "-" + EARLY_TO + " (medians)",
                    BenchTable.number(ratio) + "× (" + BenchTable.number(lateGap()) + " / "
                            + BenchTable.number(earlyGap()) + " ms)",
                    ratio,
                    2,
                    "×");
            table.row(
                    "long session: rounds " + middleFrom() + "-" + (middleFrom() + 10) + " and " + lateFrom + "-"
                            + rounds + " (medians)",
                    BenchTable.number(middleGap()) + " / " + BenchTable.number(lateGap()) + " ms");
            if (heapBytes < 0) {
                table.row(
                        "long session: live heap after " + rounds + " rounds",
                        "not measured (jcmd could not attach to the JVM)");
            } else {
                double heapMb = megabytes(heapBytes);
                table.row(
                        "long_session_heap_mb",
                        "long session: live heap after " + rounds + " rounds, after a full GC",
                        BenchTable.number(heapMb) + " MB (after round " + EARLY_HEAP_ROUND + ": "
                                + (earlyHeapBytes < 0
                                        ? "not measured"
                                        : BenchTable.number(megabytes(earlyHeapBytes)) + " MB")
                                + ")",
                        heapMb,
                        150,
                        " MB");
            }
            List<Double> compressions = compressionRounds();
            table.row(
                    "long session: compressions, Dockhand's own time in those rounds",
                    compressions.size() + " (median " + BenchTable.number(median(compressions)) + " ms, max "
                            + BenchTable.number(compressions.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .max()
                                    .orElse(0)) + " ms; the summary requests themselves, median "
                            + BenchTable.number(median(summaryMillis)) + " ms)");
            table.row(
                    "long session: request size, first / largest",
                    BenchTable.number(firstRequestBytes / 1024.0) + " / "
                            + BenchTable.number(largestRequestBytes / 1024.0) + " KB");
            return table;
        }

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("long_session_rounds", roundMillis.size());
            json.put("long_session_early_gap_ms", round(earlyGap()));
            json.put("long_session_middle_gap_ms", round(middleGap()));
            json.put("long_session_late_gap_ms", round(lateGap()));
            json.put("long_session_compressions", compressedRounds.size());
            json.put(
                    "long_session_compression_round_ms",
                    compressionRounds().stream()
                            .map(LongSessionBenchmark::round)
                            .toList());
            json.put("long_session_early_heap_mb", earlyHeapBytes < 0 ? null : round(megabytes(earlyHeapBytes)));
            json.put("long_session_heap_mb", heapBytes < 0 ? null : round(megabytes(heapBytes)));
            json.put("long_session_largest_request_bytes", largestRequestBytes);
            return json;
        }
    }

    private static double megabytes(long bytes) {
        return bytes / (1024.0 * 1024);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    /**
     * The scripted model: a request with tools gets the next read_file call, the last one the answer; a request
     * without tools is a summary request and gets a short summary. Before answering the last request it lets the
     * benchmark look at Dockhand's heap, while the whole session is still live.
     */
    static final class Model implements AutoCloseable {
        private final HttpServer server;
        private final int rounds;
        private final List<Exchange> exchanges = new ArrayList<>();
        private volatile LongSupplier heapLook = () -> -1;
        /** The live heap when the request after round {@link #EARLY_HEAP_ROUND} came, and when the last one came. */
        volatile long earlyHeapBytes = -1;

        volatile long liveHeapBytes = -1;
        private int requests;

        Model(int rounds) throws IOException {
            this.rounds = rounds;
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "scripted-model");
                thread.setDaemon(true);
                return thread;
            }));
            server.createContext("/", exchange -> {
                long arrived = System.nanoTime();
                byte[] request;
                try (InputStream in = exchange.getRequestBody()) {
                    request = in.readAllBytes();
                }
                JsonNode body = Json.read(new String(request, StandardCharsets.UTF_8));
                boolean summary = !body.has("tools");
                String reply;
                if (summary) {
                    reply = ScriptedServer.answer("## Goals\nRead the notes one by one.\n\n## Done\nThe notes up to"
                            + " the last one summarised were read; each held numbered lines about a fox and a dog.");
                } else {
                    int round = ++requests;
                    if (round == EARLY_HEAP_ROUND + 1 && round <= rounds) {
                        earlyHeapBytes = heapLook.getAsLong();
                    }
                    if (round > rounds) {
                        liveHeapBytes = heapLook.getAsLong();
                        reply = ScriptedServer.answer("I read all " + rounds + " notes.");
                    } else {
                        reply = ScriptedServer.toolCall(
                                "call_" + round, "read_file", "{\"path\":\"" + fileName(round) + "\"}");
                    }
                }
                byte[] out = reply.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, out.length);
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(out);
                }
                synchronized (exchanges) {
                    exchanges.add(new Exchange(summary, request.length, arrived, System.nanoTime()));
                }
            });
            server.start();
        }

        /** How to look at Dockhand's live heap; asked while a request waits, so its time is the model's. */
        void onHeapLook(LongSupplier look) {
            this.heapLook = look;
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        List<Exchange> exchanges() {
            synchronized (exchanges) {
                return List.copyOf(exchanges);
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
