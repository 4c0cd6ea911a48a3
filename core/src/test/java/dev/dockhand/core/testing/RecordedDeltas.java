package dev.dockhand.core.testing;

import dev.dockhand.core.model.ModelClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A stream listener that keeps every text and reasoning delta, in order, for tests to compare whole. */
public final class RecordedDeltas implements ModelClient.StreamListener {
    public final List<String> text = new CopyOnWriteArrayList<>();
    public final List<String> reasoning = new CopyOnWriteArrayList<>();

    @Override
    public void onTextDelta(String delta) {
        text.add(delta);
    }

    @Override
    public void onReasoningDelta(String delta) {
        reasoning.add(delta);
    }
}
