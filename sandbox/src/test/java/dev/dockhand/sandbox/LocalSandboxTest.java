package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSandboxTest extends SandboxContractTest {
    @Override
    protected Sandbox createSandbox(Path workspace) {
        return new LocalSandbox(Map.of("PATH", System.getenv("PATH"), "GREETING", "hello"));
    }

    @Test
    void commandsSeeOnlyTheGivenEnvironment() throws Exception {
        ExecResult result = run("echo \"$GREETING ${HOME:-no-home}\"");

        assertEquals(ExecResult.exited(0), result);
        assertEquals(List.of("hello no-home"), lines);
    }
}
