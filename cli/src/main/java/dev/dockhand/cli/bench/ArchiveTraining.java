package dev.dockhand.cli.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;

/**
 * The scripted model of the training runs that {@code scripts/dockhand} records its start-up archives from (AppCDS
 * on JDK 17, AOT caches on JDK 25): asks for a {@code read_file} round and a {@code run_shell_command} round, so that
 * the sandbox's classes are recorded too (the Docker sandbox's or none, by archive), then answers; it exits when its
 * stdin closes. It runs in a JVM of its own, so an archive, recorded from a real {@code dockhand -p} against it, holds
 * exactly the classes such a run loads, none of this server's; an AOT cache loads all of its classes at every start.
 *
 * <p>Usage: {@code ArchiveTraining DIR}. Prints three lines: the model's https base URL and the trust store a client
 * needs for it (both empty when {@link TrainingTls} could not make its keys in DIR), then a plain http base URL. The
 * launcher trains over https, since hosted models are all https and an https run loads everything a plain http one
 * does and TLS besides; plain http is its fallback.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {}

    public static void main(String[] args) throws IOException {
        List<String> script = List.of(
                ScriptedServer.toolCall("t1", "read_file", "{\"path\":\"notes.txt\"}"),
                ScriptedServer.toolCall("t2", "run_shell_command", "{\"command\":\"cat notes.txt\"}"),
                ScriptedServer.answer("Trained."));
        TrainingTls tls = null;
        if (args.length > 0) {
            try {
                tls = TrainingTls.create(Path.of(args[0]));
            } catch (IOException | GeneralSecurityException e) {
                // Plain http still records everything but TLS.
                System.err.println("training over plain http only: " + e.getMessage());
            }
        }
        try (ScriptedServer plain = new ScriptedServer(script);
                ScriptedServer https = tls == null ? null : new ScriptedServer(script, tls.serverContext())) {
            System.out.println(https == null ? "" : https.baseUrl());
            System.out.println(tls == null ? "" : tls.trustStore().toString());
            System.out.println(plain.baseUrl());
            System.out.flush();
            InputStream stdin = System.in;
            while (stdin.read() >= 0) {
                // Serve until the launcher closes our stdin (or exits).
            }
        }
    }
}
