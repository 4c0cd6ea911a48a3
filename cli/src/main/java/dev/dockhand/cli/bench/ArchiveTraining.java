package dev.dockhand.cli.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The scripted model of the training run that {@code scripts/dockhand} records its start-up archive from (AppCDS on
 * JDK 17, an AOT cache on JDK 25): prints its base URL, asks for one {@code read_file} round and then answers, and
 * exits when its stdin closes. It runs in a JVM of its own, so the archive, recorded from a real {@code dockhand -p}
 * against it, holds exactly the classes such a run loads, none of this server's; an AOT cache loads all of its
 * classes at every start.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {}

    public static void main(String[] args) throws IOException {
        try (ScriptedServer model = new ScriptedServer(List.of(
                ScriptedServer.toolCall("t1", "read_file", "{\"path\":\"notes.txt\"}"),
                ScriptedServer.answer("Trained.")))) {
            System.out.println(model.baseUrl());
            System.out.flush();
            InputStream stdin = System.in;
            while (stdin.read() >= 0) {
                // Serve until the launcher closes our stdin (or exits).
            }
        }
    }
}
