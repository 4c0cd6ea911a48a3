package dev.dockhand.bench;

import dev.dockhand.core.redaction.LineRedactor;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * What secret redaction costs and how often it is wrong (docs/trust-and-safety.md quotes its numbers). Not a test: the
 * numbers depend on the machine. Arguments: the JDK's {@code src.zip} and a source tree (this repository); with
 * {@code --stream-mb N}, also N MB of command output streamed line by line, with the heap it took ({@code --stream-mb
 * N} alone runs only that, to be run with a small {@code -Xmx}).
 *
 * <ol>
 *   <li>Time: the median and 90th percentile of redacting 1 MB of ordinary output (JDK sources), after warm-up.
 *   <li>False positives: redactions per MB of each corpus, by rule, with a few examples. Real sources hold no real
 *       secrets, so every redaction there is a false positive (or a test value).
 * </ol>
 */
public final class RedactionBenchmark {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\[REDACTED:([A-Za-z0-9_.\\-]+):\\d+\\]");

    private RedactionBenchmark() {}

    public static void main(String[] args) throws IOException {
        List<String> arguments = new ArrayList<>(Arrays.asList(args));
        long streamMb = 0;
        int flag = arguments.indexOf("--stream-mb");
        if (flag >= 0) {
            streamMb = Long.parseLong(arguments.get(flag + 1));
            arguments.subList(flag, flag + 2).clear();
        }
        if (flag == 0 && arguments.isEmpty()) {
            // Only the stream, so that a small -Xmx shows the memory it needs.
            stream(streamMb);
            return;
        }
        Path srcZip = Path.of(arguments.isEmpty() ? "/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip" : arguments.get(0));
        Path tree = Path.of(arguments.size() > 1 ? arguments.get(1) : ".");
        List<String> jdk = jdkSources(srcZip);
        timeOneMegabyte(jdk);
        falsePositives("JDK sources (" + srcZip + ")", jdk);
        falsePositives("source tree (" + tree.toAbsolutePath().normalize() + ")", tree(tree));
        if (streamMb > 0) {
            stream(streamMb);
        }
    }

    /** A redactor as a session has one: the built-in rules and this process's secret-looking variables. */
    private static Redactor redactor() {
        return Redactor.of(
                SecretRules.builtIn(), new SecretValues().addEnvironment(System.getenv()), java.util.Set.of(), p -> {});
    }

    private static void timeOneMegabyte(List<String> files) {
        StringBuilder text = new StringBuilder();
        for (String file : files) {
            if (text.length() >= 1 << 20) {
                break;
            }
            text.append(file);
        }
        String megabyte = text.substring(0, 1 << 20);
        Redactor redactor = redactor();
        for (int i = 0; i < 30; i++) {
            redactor.redact(megabyte);
        }
        // The thread's CPU time, not the wall clock: on a shared machine the wall clock measures the other jobs too.
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] times = new long[50];
        for (int i = 0; i < times.length; i++) {
            long start = threads.getCurrentThreadCpuTime();
            redactor.redact(megabyte);
            times[i] = threads.getCurrentThreadCpuTime() - start;
        }
        Arrays.sort(times);
        System.out.printf(
                Locale.ROOT,
                "1 MB of ordinary output (JDK sources): median %.1f ms, p90 %.1f ms of CPU time (%d runs after warm-up)%n",
                times[times.length / 2] / 1e6,
                times[times.length * 9 / 10] / 1e6,
                times.length);
    }

    private static void falsePositives(String name, List<String> files) {
        Redactor redactor = redactor();
        long chars = 0;
        int redactions = 0;
        Map<String, Integer> byRule = new TreeMap<>();
        Map<String, List<String>> examples = new TreeMap<>();
        long start = System.nanoTime();
        for (String file : files) {
            chars += file.length();
            Redactor.Redacted redacted = redactor.redact(file);
            redactions += redacted.count();
            if (redacted.count() > 0) {
                String[] before = file.split("\n", -1);
                String[] after = redacted.text().split("\n", -1);
                for (int i = 0; i < after.length; i++) {
                    String line = after[i];
                    if (i < before.length && before[i].equals(line)) {
                        continue;
                    }
                    // Placeholders the file held already (this repository's tests and docs quote some) are not counted.
                    String original = i < before.length ? before[i] : "";
                    Matcher matcher = PLACEHOLDER.matcher(line);
                    while (matcher.find()) {
                        if (original.contains(matcher.group())) {
                            continue;
                        }
                        byRule.merge(matcher.group(1), 1, Integer::sum);
                        List<String> kept = examples.computeIfAbsent(matcher.group(1), id -> new ArrayList<>());
                        if (kept.size() < 3) {
                            kept.add(line.strip().length() > 120 ? line.strip().substring(0, 120) : line.strip());
                        }
                    }
                }
            }
        }
        double mb = chars / (double) (1 << 20);
        System.out.printf(
                Locale.ROOT,
                "%s: %.1f MB in %d files, %d redactions, %.2f per MB (%.0f ms)%n",
                name,
                mb,
                files.size(),
                redactions,
                redactions / mb,
                (System.nanoTime() - start) / 1e6);
        byRule.forEach((rule, count) -> {
            System.out.printf(Locale.ROOT, "  %-28s %5d%n", rule, count);
            examples.get(rule).forEach(example -> System.out.println("      " + example));
        });
    }

    /** N MB of build-log lines through a call's line redactor, as the shell streams them. */
    private static void stream(long megabytes) {
        Redactor redactor = redactor();
        long[] lines = {0};
        LineRedactor redacting = redactor.lines(line -> lines[0]++);
        String line = "[INFO] Compiling 214 source files with javac [debug release 17] to target/classes";
        long total = megabytes << 20;
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        long before = runtime.totalMemory() - runtime.freeMemory();
        long peak = before;
        long start = System.nanoTime();
        for (long sent = 0; sent < total; sent += line.length() + 1) {
            redacting.line(line);
            if ((lines[0] & 0xffff) == 0) {
                peak = Math.max(peak, runtime.totalMemory() - runtime.freeMemory());
            }
        }
        redacting.finish();
        System.out.printf(
                Locale.ROOT,
                "streamed %d MB (%d lines) in %.1f s; heap in use at most %.0f MB (%.0f MB before)%n",
                megabytes,
                lines[0],
                (System.nanoTime() - start) / 1e9,
                peak / 1e6,
                before / 1e6);
    }

    private static List<String> jdkSources(Path srcZip) throws IOException {
        List<String> files = new ArrayList<>();
        try (InputStream in = Files.newInputStream(srcZip);
                ZipInputStream zip = new ZipInputStream(in)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                if (entry.getName().endsWith(".java")) {
                    files.add(new String(zip.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return files;
    }

    private static List<String> tree(Path root) throws IOException {
        List<String> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                String path = root.relativize(file).toString();
                if (path.startsWith(".git") || path.contains("/target/") || path.startsWith("target")) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(file);
                if (bytes.length > 4 << 20
                        || new String(bytes, 0, Math.min(bytes.length, 8000), StandardCharsets.ISO_8859_1).indexOf('\0')
                                >= 0) {
                    continue;
                }
                files.add(new String(bytes, StandardCharsets.UTF_8));
            }
        }
        return files;
    }
}
