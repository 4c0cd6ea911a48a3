package dev.dockhand.bench;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CompletedCall;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.tools.GlobTool;
import dev.dockhand.tools.GrepTool;
import dev.dockhand.tools.ListDirectoryTool;
import dev.dockhand.tools.ReadFileTool;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A benchmark, not a test (run by {@code scripts/bench-bigrepo.sh}): the search tools on a large real source tree,
 * the JDK's own {@code lib/src.zip} unpacked (about 15,000 files, 240 MB), against ripgrep on the command line doing
 * the same work, the physical floor. The tree gets a {@code .gitignore} that leaves out a generated module and every
 * {@code resources/} folder at any depth, so ignore handling is part of what is timed.
 *
 * <p>Each call goes through {@link CoreToolScheduler#runRound}, as the model's calls do (arguments validated, the
 * result cut to the output budget): {@code grep} for ten patterns (with ripgrep, as installed, and with the Java
 * search the grep tool falls back to without it), {@code glob} for five (likewise with ripgrep and with the Java walk),
 * {@code list_directory} of the root and
 * {@code read_file} of the largest file. The command-line work beside them: {@code rg PATTERN}, {@code rg --files -g
 * GLOB}, {@code ls -l} and {@code cat -n}, each with its output read through a pipe (ripgrep stops at the first match
 * when its output is {@code /dev/null}). The runs interleave each call with its command, and each target is the median
 * over runs of one run's ratio, so that a busy moment on a shared machine weighs on both sides alike.
 */
public final class BigRepoBenchmark {
    private static final double TOOL_TARGET = 1.5;
    private static final double JAVA_SEARCH_TARGET = 3;

    /** What a project would ignore: a generated module, and resource folders at every depth. */
    private static final String GITIGNORE =
            "# generated locale data\n/jdk.localedata/\n# resources, at any depth\nresources/\n";

    /** A grep call: pattern and glob (null for none). */
    private record Grep(String pattern, String glob) {}

    private static final List<Grep> GREPS = List.of(
            new Grep("ConcurrentHashMap", null),
            new Grep("synchronized\\s*\\(", null),
            new Grep("TODO", null),
            new Grep("class \\w+Exception extends", null),
            new Grep("no_such_token_anywhere", null),
            new Grep("@FunctionalInterface", null),
            new Grep("Unsafe\\.getUnsafe\\(\\)", null),
            new Grep("0xCAFEBABE", null),
            new Grep("MethodHandles\\.lookup\\(\\)", null),
            new Grep("Charset", "**/nio/**"));

    private static final List<String> GLOBS = List.of(
            "**/*Exception.java",
            "**/package-info.java",
            "java.base/java/util/concurrent/*.java",
            "**/nio/**/*Buffer*.java",
            "**/resources/*.java");

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Optional<Path> zip = args.length > 1 ? Optional.of(Path.of(args[1])) : sourceZip();
        Optional<Path> rg = onPath("rg");
        if (zip.isEmpty() || !Files.isRegularFile(zip.get())) {
            System.out.println("big repository: not measured (no lib/src.zip under JAVA_HOME or /usr/lib/jvm/*;"
                    + " give one as: scripts/bench-bigrepo.sh RUNS PATH/src.zip)");
            return;
        }
        if (rg.isEmpty()) {
            System.out.println("big repository: not measured (no rg on the PATH: ripgrep is the floor it is measured"
                    + " against)");
            return;
        }
        Path temp = BenchFiles.temporaryFolder("dockhand-bench-bigrepo");
        try {
            Path tree = Files.createDirectories(temp.resolve("jdk-src"));
            int files = unpack(zip.get(), tree);
            Files.writeString(tree.resolve(".gitignore"), GITIGNORE);
            new BigRepoBenchmark(tree, temp.resolve("outputs"), rg.get()).run(runs, zip.get(), files);
        } finally {
            BenchFiles.deleteTree(temp);
        }
    }

    private final Path tree;
    private final Path rg;
    private final Path largest;
    private final CoreToolScheduler tools;
    private final CoreToolScheduler javaSearch;
    private final LocalSandbox sandbox = new LocalSandbox(Map.of());

    private BigRepoBenchmark(Path tree, Path outputs, Path rg) throws IOException {
        this.tree = tree;
        this.rg = rg;
        this.largest = largestFile(tree);
        ToolEnvironment environment = new ToolEnvironment(Workspace.of(tree), sandbox, OutputLimits.DEFAULT, outputs);
        this.tools = scheduler(environment, new GrepTool(), new GlobTool());
        this.javaSearch = scheduler(environment, GrepTool.withoutRipgrep(), GlobTool.withoutRipgrep());
    }

    private static CoreToolScheduler scheduler(ToolEnvironment environment, GrepTool grep, GlobTool glob) {
        return new CoreToolScheduler(
                new ToolRegistry(List.of(grep, glob, new ListDirectoryTool(), new ReadFileTool())),
                environment,
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                event -> {});
    }

    /** Per run, the total time of each kind of work, in nanoseconds. */
    private static final class Totals {
        final Map<String, List<Long>> byKind = new LinkedHashMap<>();

        void add(String kind, long nanos) {
            byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(nanos);
        }
    }

    private void run(int runs, Path zip, int files) throws Exception {
        List<String> shown = new ArrayList<>();
        if (runs > 1) {
            // The JIT's and the page cache's warm-up, as the first calls of a session give them.
            measureOnce(new Totals(), new LinkedHashMap<>(), shown);
        }
        Totals totals = new Totals();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        shown.clear();
        for (int i = 0; i < runs; i++) {
            measureOnce(totals, ratios, shown);
        }
        long early = timeEarlyStop();

        List<String> ignoredShown = shown.stream()
                .filter(path -> path.startsWith("jdk.localedata/") || path.contains("/resources/"))
                .distinct()
                .toList();
        BenchTable table = table(zip, files, runs, totals, ratios, ignoredShown.size(), early);
        System.out.print(table.render());
        printJson(files, totals, ratios, early, runs, table);
        sandbox.close();
    }

    /** Each figure of the runs, and each ratio beside its target. */
    private BenchTable table(
            Path zip,
            int files,
            int runs,
            Totals totals,
            Map<String, List<Double>> ratios,
            int ignoredShown,
            long early)
            throws IOException {
        return new BenchTable()
                .row("tree: " + zip + ", unpacked", String.format("%,d", files) + " files")
                .row(
                        "grep, 10 patterns, with ripgrep: tool calls, median of " + runs,
                        ms(median(totals.byKind.get("grep"))))
                .row("  rg PATTERN, the same 10", ms(median(totals.byKind.get("rg"))))
                .ratio("grep_ratio", "  grep against rg", median(ratios.get("grep")), TOOL_TARGET)
                .row("grep, 10 patterns, Java search (no ripgrep): tool calls", ms(median(totals.byKind.get("java"))))
                .ratio("java_grep_ratio", "  Java search against rg", median(ratios.get("java")), JAVA_SEARCH_TARGET)
                .row("glob, 5 patterns, with ripgrep: tool calls", ms(median(totals.byKind.get("glob"))))
                .row("  rg --files -g GLOB, the same 5", ms(median(totals.byKind.get("rg-files"))))
                .ratio("glob_ratio", "  glob against rg --files", median(ratios.get("glob")), TOOL_TARGET)
                .row("glob, 5 patterns, Java walk (no ripgrep): tool calls", ms(median(totals.byKind.get("java-glob"))))
                .ratio(
                        "java_glob_ratio",
                        "  Java walk against rg --files",
                        median(ratios.get("java-glob")),
                        JAVA_SEARCH_TARGET)
                .row("list_directory of the root: tool call", ms(median(totals.byKind.get("list"))))
                .row("  ls -l of the root", ms(median(totals.byKind.get("ls"))))
                .ratio(
                        "list_directory_ratio",
                        "  list_directory against ls -l",
                        median(ratios.get("list")),
                        TOOL_TARGET)
                .row(
                        "read_file of the largest file (" + tree.relativize(largest) + ", "
                                + String.format("%,d", Files.size(largest)) + " bytes): tool call",
                        ms(median(totals.byKind.get("read"))))
                .row("  cat -n of the same file", ms(median(totals.byKind.get("cat"))))
                .ratio("read_file_ratio", "  read_file against cat -n", median(ratios.get("read")), TOOL_TARGET)
                .row(
                        "ignored_paths_shown",
                        "paths under .gitignored folders in grep and glob results",
                        Integer.toString(ignoredShown),
                        ignoredShown,
                        0,
                        "")
                .row("grep \"import\" (over 100,000 matching lines) to its 200-match limit", ms(early));
    }

    private static void printJson(
            int files, Totals totals, Map<String, List<Double>> ratios, long early, int runs, BenchTable table) {
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("files", files);
        for (Map.Entry<String, List<Long>> kind : totals.byKind.entrySet()) {
            results.put(kind.getKey() + "_median_ms", round(median(kind.getValue()) / 1e6));
        }
        for (Map.Entry<String, List<Double>> ratio : ratios.entrySet()) {
            results.put(ratio.getKey() + "_ratio", Math.round(median(ratio.getValue()) * 100) / 100.0);
        }
        results.put("early_stop_ms", round(early / 1e6));
        results.put("runs", runs);
        results.put("targets", table.verdicts());
        System.out.println(Json.write(results));
    }

    /** One run: every call beside its command, interleaved; adds the run's totals and ratios. */
    private void measureOnce(Totals totals, Map<String, List<Double>> ratios, List<String> shown) throws Exception {
        long grep = 0;
        long java = 0;
        long rgGrep = 0;
        for (Grep search : GREPS) {
            String arguments = "{\"pattern\":" + Json.write(search.pattern())
                    + (search.glob() == null ? "" : ",\"glob\":" + Json.write(search.glob())) + "}";
            long start = System.nanoTime();
            shown.addAll(paths(call(tools, "grep", arguments)));
            grep += System.nanoTime() - start;
            start = System.nanoTime();
            shown.addAll(paths(call(javaSearch, "grep", arguments)));
            java += System.nanoTime() - start;
            List<String> command = new ArrayList<>(List.of(rg.toString(), "--no-require-git"));
            if (search.glob() != null) {
                command.addAll(List.of("-g", search.glob()));
            }
            // The folder named: with no path, ripgrep searches its standard input when that is a pipe.
            command.addAll(List.of("-e", search.pattern(), "."));
            rgGrep += command(command);
        }
        long glob = 0;
        long javaGlob = 0;
        long rgFiles = 0;
        for (String pattern : GLOBS) {
            String arguments = "{\"pattern\":" + Json.write(pattern) + "}";
            long start = System.nanoTime();
            shown.addAll(paths(call(tools, "glob", arguments)));
            glob += System.nanoTime() - start;
            start = System.nanoTime();
            shown.addAll(paths(call(javaSearch, "glob", arguments)));
            javaGlob += System.nanoTime() - start;
            rgFiles += command(List.of(rg.toString(), "--no-require-git", "--files", "-g", pattern));
        }
        long start = System.nanoTime();
        call(tools, "list_directory", "{}");
        long list = System.nanoTime() - start;
        long ls = command(List.of("ls", "-l"));
        String relative = tree.relativize(largest).toString();
        start = System.nanoTime();
        call(tools, "read_file", "{\"path\":" + Json.write(relative) + "}");
        long read = System.nanoTime() - start;
        long cat = command(List.of("cat", "-n", relative));

        totals.add("grep", grep);
        totals.add("java", java);
        totals.add("rg", rgGrep);
        totals.add("glob", glob);
        totals.add("java-glob", javaGlob);
        totals.add("rg-files", rgFiles);
        totals.add("list", list);
        totals.add("ls", ls);
        totals.add("read", read);
        totals.add("cat", cat);
        ratios.computeIfAbsent("grep", k -> new ArrayList<>()).add((double) grep / rgGrep);
        ratios.computeIfAbsent("java", k -> new ArrayList<>()).add((double) java / rgGrep);
        ratios.computeIfAbsent("glob", k -> new ArrayList<>()).add((double) glob / rgFiles);
        ratios.computeIfAbsent("java-glob", k -> new ArrayList<>()).add((double) javaGlob / rgFiles);
        ratios.computeIfAbsent("list", k -> new ArrayList<>()).add((double) list / ls);
        ratios.computeIfAbsent("read", k -> new ArrayList<>()).add((double) read / cat);
    }

    /** A pattern on nearly every file: the limit must end the search long before the tree does. */
    private long timeEarlyStop() {
        long start = System.nanoTime();
        call(tools, "grep", "{\"pattern\":\"import\"}");
        return System.nanoTime() - start;
    }

    private static ToolResult call(CoreToolScheduler scheduler, String tool, String arguments) {
        List<CompletedCall> done =
                scheduler.runRound(List.of(new ToolCall("bench", tool, arguments)), new Cancellation());
        ToolResult result = done.get(0).result();
        if (result.isError()) {
            throw new IllegalStateException(tool + " " + arguments + " failed: " + result.llmContent());
        }
        return result;
    }

    /** The files a grep or glob result names: the part of each line before the first colon, when it is a file. */
    private List<String> paths(ToolResult result) {
        List<String> paths = new ArrayList<>();
        for (String line : result.llmContent().split("\n")) {
            int colon = line.indexOf(':');
            String path = colon < 0 ? line : line.substring(0, colon);
            if (!path.isEmpty() && Files.isRegularFile(tree.resolve(path))) {
                paths.add(path);
            }
        }
        return paths;
    }

    /** Runs a command in the tree with its output read to the end through a pipe; returns its wall time. */
    private long command(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .directory(tree.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        process.getOutputStream().close();
        try (InputStream out = process.getInputStream()) {
            out.transferTo(OutputStream.nullOutputStream());
        }
        int exit = process.waitFor();
        long time = System.nanoTime() - start;
        if (exit > 1) {
            throw new IOException(String.join(" ", command) + " exited with " + exit);
        }
        return time;
    }

    /** $JAVA_HOME/lib/src.zip, else the first /usr/lib/jvm/{@literal *}/lib/src.zip that is there. */
    private static Optional<Path> sourceZip() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null) {
            candidates.add(Path.of(javaHome, "lib", "src.zip"));
        }
        candidates.add(Path.of(System.getProperty("java.home"), "lib", "src.zip"));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> installed = Files.list(jvms)) {
                installed.sorted().forEach(jdk -> candidates.add(jdk.resolve("lib/src.zip")));
            }
        }
        // A link to a src.zip the package does not ship dangles; isRegularFile follows it and says no.
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String folder : path.split(File.pathSeparator)) {
            Path candidate = Path.of(folder, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Unpacks the archive's files into {@code into}; returns how many there were. */
    private static int unpack(Path zip, Path into) throws IOException {
        int files = 0;
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("an entry of " + zip + " leads outside: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(in, target);
                    files++;
                }
            }
        }
        return files;
    }

    private static Path largestFile(Path tree) throws IOException {
        try (Stream<Path> all = Files.walk(tree)) {
            return all.filter(Files::isRegularFile)
                    .max(Comparator.comparingLong(BigRepoBenchmark::size))
                    .orElseThrow();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static String ms(double nanos) {
        return BenchTable.number(round(nanos / 1e6)) + " ms";
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double median(List<? extends Number> values) {
        List<Double> doubles = values.stream().map(Number::doubleValue).toList();
        List<Double> sorted = new ArrayList<>(doubles);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }
}
