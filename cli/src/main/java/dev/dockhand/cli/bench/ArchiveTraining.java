package dev.dockhand.cli.bench;

import dev.dockhand.cli.Main;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The training run {@code scripts/dockhand} records the start-up archive from (AppCDS on JDK 17, an AOT cache on
 * JDK 25): one real single-shot conversation with a tool round against a local scripted model, so the archive holds
 * the classes every {@code dockhand -p} loads. Prints nothing.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {}

    public static void main(String[] args) throws Exception {
        Path workspace = Files.createTempDirectory("dockhand-training");
        Files.writeString(workspace.resolve("notes.txt"), "training\n");
        try (ScriptedServer model = new ScriptedServer(List.of(
                ScriptedServer.toolCall("t1", "read_file", "{\"path\":\"notes.txt\"}"),
                ScriptedServer.answer("Trained.")))) {
            Map<String, String> variables = Map.of("OPENAI_API_KEY", "training", "PATH", System.getenv("PATH"));
            PrintWriter quiet = new PrintWriter(Writer.nullWriter());
            Main.run(
                    new String[] {
                        "--sandbox",
                        "none",
                        "--yolo",
                        "--model",
                        "training",
                        "--base-url",
                        model.baseUrl(),
                        "-p",
                        "train"
                    },
                    variables,
                    workspace,
                    workspace.resolve(".home"),
                    InputStream.nullInputStream(),
                    quiet,
                    quiet);
        } finally {
            try (var files = Files.walk(workspace)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
        // okhttp's dispatcher threads would keep the JVM alive for a minute; the archive is written at exit.
        System.exit(0);
    }
}
