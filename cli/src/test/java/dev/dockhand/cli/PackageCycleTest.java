package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The cli module's packages depend on each other in one direction only. Read from the compiled classes: every class a
 * class uses is named in its constant pool ({@code dev/dockhand/cli/repl/Repl}), so comments and Javadoc links do not
 * count, and nothing can hide behind a fully qualified name.
 */
class PackageCycleTest {
    private static final Pattern REFERENCE = Pattern.compile("dev/dockhand/cli/((?:[a-z]\\w*/)*)[A-Z]");

    @Test
    void noPackageReachesBackToItself() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            for (String next : uses.get(start)) {
                if (reaches(uses, next, start, new TreeSet<>())) {
                    cycles.add(start + " -> " + next + " -> … -> " + start);
                }
            }
        }
        assertEquals(List.of(), cycles, "packages: " + uses);
    }

    @Test
    void noPackageHoldsMoreThanFifteenClasses() throws IOException {
        Map<String, Integer> sizes = new TreeMap<>();
        for (Path file : classFiles()) {
            if (!file.getFileName().toString().contains("$")) {
                sizes.merge(packageOf(file), 1, Integer::sum);
            }
        }
        assertTrue(sizes.size() > 1, sizes.toString());
        sizes.forEach((name, size) -> assertTrue(size <= 15, name + " holds " + size + " classes"));
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (reaches(uses, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : classFiles()) {
            String from = packageOf(file);
            Set<String> targets = uses.computeIfAbsent(from, name -> new TreeSet<>());
            // Class files hold names in modified UTF-8; Latin-1 reads the ASCII of package names byte for byte.
            Matcher matcher = REFERENCE.matcher(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            while (matcher.find()) {
                String to = "dev.dockhand.cli" + ("/" + matcher.group(1)).replace('/', '.');
                to = to.endsWith(".") ? to.substring(0, to.length() - 1) : to;
                if (!to.equals(from)) {
                    targets.add(to);
                }
            }
        }
        return uses;
    }

    private static String packageOf(Path classFile) {
        Path root = classesRoot();
        return "dev.dockhand.cli"
                + root.relativize(classFile.getParent())
                        .toString()
                        .replace('/', '.')
                        .transform(p -> p.isEmpty() ? "" : "." + p);
    }

    private static List<Path> classFiles() throws IOException {
        try (Stream<Path> files = Files.walk(classesRoot())) {
            return files.filter(file -> file.toString().endsWith(".class")).toList();
        }
    }

    /** The main classes' folder: where Main was compiled, not the tests'. */
    private static Path classesRoot() {
        try {
            return Path.of(Main.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .resolve("dev/dockhand/cli");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
