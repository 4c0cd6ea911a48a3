import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Build step of the cli module (run by exec-maven-plugin with the module's compile classpath, ASM included):
 * rewrites the classes of the jar that holds a given class as Java 17 class files with stack map frames, into a
 * classes folder.
 *
 * <p>Why: picocli ships Java 5 class files. The JVM verifies those with its old, slow verifier on every start (about
 * 40 ms here), and neither a JDK 17 dynamic AppCDS archive nor a JDK 25 AOT cache stores them, so every run loaded
 * and verified picocli from the jar. Rewritten, they are verified once when the archive is recorded and loaded from
 * it afterwards. Only the class file version and the frames change; the bytecode is the library's own.
 *
 * <p>Usage: {@code java -cp CLASSPATH UpgradeBytecode CLASS_IN_JAR OUTPUT_FOLDER}. Every rewritten class is then
 * loaded and linked in a fresh class loader, so a frame the JVM would reject fails the build, not a user's run.
 */
public final class UpgradeBytecode {
    private static final int TARGET = Opcodes.V17;

    private UpgradeBytecode() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: UpgradeBytecode CLASS_IN_JAR OUTPUT_FOLDER");
            System.exit(2);
        }
        Path jar = jarOf(args[0]);
        Path output = Path.of(args[1]);
        List<String> classes = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : file.stream().toList()) {
                String name = entry.getName();
                if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) {
                    continue;
                }
                byte[] upgraded;
                try (InputStream in = file.getInputStream(entry)) {
                    upgraded = upgrade(in.readAllBytes());
                }
                Path target = output.resolve(name);
                Files.createDirectories(target.getParent());
                Files.write(target, upgraded);
                classes.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
            }
        }
        linkAll(output, classes);
        System.out.println("UpgradeBytecode: " + classes.size() + " classes of " + jar.getFileName()
                + " rewritten as Java 17 class files into " + output);
    }

    /** The jar on the classpath holding the class; the output folder may hold an earlier rewrite of it too. */
    private static Path jarOf(String className) throws IOException, URISyntaxException {
        String resource = className.replace('.', '/') + ".class";
        for (URL url : Collections.list(UpgradeBytecode.class.getClassLoader().getResources(resource))) {
            if (url.getProtocol().equals("jar")) {
                String file = url.getPath();
                return Path.of(new URI(file.substring(0, file.indexOf("!/"))));
            }
        }
        throw new IllegalStateException("no jar on the classpath holds " + className);
    }

    static byte[] upgrade(byte[] original) {
        ClassReader reader = new ClassReader(original);
        if (reader.readUnsignedShort(6) >= TARGET) {
            return original;
        }
        // COMPUTE_FRAMES recomputes max stack and locals too; the common super class of two types is found by
        // loading them, which works because the library's jar is on this program's classpath.
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    @Override
                    public void visit(
                            int version,
                            int access,
                            String name,
                            String signature,
                            String superName,
                            String[] interfaces) {
                        super.visit(TARGET, access, name, signature, superName, interfaces);
                    }
                },
                ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** Loads and initialises every rewritten class apart from the original jar, so the JVM verifies each one. */
    private static void linkAll(Path output, List<String> classes) throws IOException {
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {output.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            List<String> failures = new ArrayList<>();
            for (String name : classes) {
                try {
                    Class.forName(name, true, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    failures.add(name + ": " + e);
                }
            }
            if (!failures.isEmpty()) {
                failures.forEach(System.err::println);
                throw new UncheckedIOException(new IOException(failures.size() + " rewritten classes do not link"));
            }
        }
    }
}
