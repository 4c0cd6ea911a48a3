package dev.dockhand.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.RetryPolicy;
import dev.dockhand.core.model.Timeouts;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /model between OpenAI's two APIs: a Responses-only model moves to the Responses wire on the same server. */
public class ModelChoiceTest {
    @TempDir
    Path temp;

    private final ModelChoice current = new ModelChoice(
            Provider.OPENAI,
            "gpt-4.1",
            "http://127.0.0.1:9/v1",
            "sk-given",
            Timeouts.DEFAULT,
            RetryPolicy.DEFAULT,
            1024);

    private CliEnvironment environment() {
        // Another server and key in the environment: a switch within OpenAI must not pick them up.
        return new CliEnvironment(
                Map.of("OPENAI_BASE_URL", "http://127.0.0.1:8/v1", "OPENAI_API_KEY", "sk-environment"),
                temp,
                temp,
                InputStream.nullInputStream(),
                false);
    }

    @Test
    void aResponsesOnlyModelMovesToTheResponsesWireKeepingServerAndKey() {
        ModelChoice next = current.switchTo("gpt-5.1-codex-max", environment());

        assertEquals(
                List.of("openai-responses:gpt-5.1-codex-max", "http://127.0.0.1:9/v1", "sk-given"),
                List.of(next.label(), next.baseUrl(), next.apiKey()));
    }

    @Test
    void anyOtherModelStaysOnTheWireInUse() {
        ModelChoice next = current.switchTo("gpt-5", environment());

        assertEquals(
                List.of("openai:gpt-5", "http://127.0.0.1:9/v1", "sk-given"),
                List.of(next.label(), next.baseUrl(), next.apiKey()));
    }
}
