package dev.dockhand.bench;

import dev.dockhand.cli.testing.ScriptedServer;
import java.util.List;

/**
 * A scripted model for trying the REPL by hand (scripts/repl-demo.sh drives it in tmux): a Markdown answer, then an
 * edit that needs approval, then a long command to cancel with Ctrl-C, then plain answers. Prints its base URL and
 * serves until killed.
 */
public final class DemoModel {
    private DemoModel() {}

    public static void main(String[] args) throws Exception {
        List<String> replies = List.of(
                ScriptedServer.answer("# Plan\n\nI will **greet** you, then write `hello.txt`:\n\n"
                        + "1. say hello\n2. write the file\n\n```java\nSystem.out.println(\"hi\");\n```\n"
                        + "See [the docs](https://example.com/docs).\n"),
                ScriptedServer.toolCall(
                        "w1", "write_file", "{\"path\":\"hello.txt\",\"content\":\"hello from the demo\\n\"}"),
                ScriptedServer.answer("I wrote **hello.txt**."),
                ScriptedServer.toolCall(
                        "s1",
                        "run_shell_command",
                        "{\"command\":\"for i in 1 2 3 4 5 6 7 8 9; do echo tick $i;" + " sleep 1; done\"}"),
                ScriptedServer.answer("The command finished."));
        try (ScriptedServer server = new ScriptedServer(replies)) {
            System.out.println(server.baseUrl());
            System.out.flush();
            Thread.currentThread().join();
        }
    }
}
