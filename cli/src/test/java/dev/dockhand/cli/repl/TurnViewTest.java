package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.model.TokenEstimator;
import dev.dockhand.core.model.TokenUsage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reasoning in the REPL, on a dumb terminal: there only finished lines are printed, so they can be read back. */
public class TurnViewTest {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private Terminal terminal;
    private TurnView view;

    @BeforeEach
    void open() throws IOException {
        terminal = new ExternalTerminal(
                "test", Terminal.TYPE_DUMB, InputStream.nullInputStream(), written, StandardCharsets.UTF_8);
        view = new TurnView(new ReplScreen(terminal, true));
    }

    @AfterEach
    void close() throws IOException {
        view.close();
        terminal.close();
    }

    private List<String> lines() {
        terminal.writer().flush();
        return written.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void reasoningFollowedByToolCallsFoldsIntoOneLineWithTheReportedCount() {
        view.start();
        view.accept(new AgentEvent.RequestStarted(1));
        view.accept(new AgentEvent.ReasoningDelta("I should read\nthe notes first."));
        view.accept(new AgentEvent.Usage(new TokenUsage(100, 40, 0, 0, 27), AgentEvent.Usage.Source.PROVIDER));
        view.stop();

        assertEquals(List.of("thinking… (27 tokens)"), lines());
    }

    @Test
    void reasoningFollowedByTextIsCountedByEstimateSinceTheUsageComesLater() {
        String reasoning = "The user asks for a greeting, so a short one will do.";
        view.start();
        view.accept(new AgentEvent.ReasoningDelta(reasoning));
        view.accept(new AgentEvent.TextDelta("Hello!\n"));
        view.accept(new AgentEvent.Usage(new TokenUsage(100, 40, 0, 0, 27), AgentEvent.Usage.Source.PROVIDER));
        view.stop();

        assertEquals(List.of("thinking… (~" + TokenEstimator.text(reasoning) + " tokens)", "Hello!"), lines());
    }

    @Test
    void slashThinkingShowsTheReasoningInFullInstead() {
        assertEquals(true, view.toggleThinking());
        view.start();
        view.accept(new AgentEvent.ReasoningDelta("First, read"));
        view.accept(new AgentEvent.ReasoningDelta(" the notes.\nThen answer."));
        view.accept(new AgentEvent.TextDelta("Done.\n"));
        view.stop();

        assertEquals(List.of("First, read the notes.", "Then answer.", "Done."), lines());
        assertEquals(false, view.toggleThinking());
    }
}
