package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A JVM that starts a sandbox container and a long command, to be killed by {@link DockerSandboxTest}. */
public final class DockerSandboxChild {
    private DockerSandboxChild() {}

    public static void main(String[] args) throws Exception {
        DockerSandbox sandbox = DockerSandbox.connect(DockerSettings.DEFAULT, Path.of(args[0]), List.of(), Map.of());
        sandbox.preflight();
        sandbox.exec(
                new ExecRequest("echo started; sleep 300", Path.of(args[0]), Duration.ofMinutes(10)),
                line -> {
                    System.out.println(line);
                    System.out.flush();
                },
                new Cancellation());
    }
}
