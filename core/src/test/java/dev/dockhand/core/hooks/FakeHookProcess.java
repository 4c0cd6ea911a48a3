package dev.dockhand.core.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Plays hook commands: each command answers as the test says, and every input it was given is kept. */
final class FakeHookProcess implements HookProcess {
    private final Map<String, Function<JsonNode, Finished>> answers = new HashMap<>();
    final List<Request> requests = new ArrayList<>();

    FakeHookProcess answer(String command, Finished finished) {
        answers.put(command, input -> finished);
        return this;
    }

    FakeHookProcess answer(String command, Function<JsonNode, Finished> answer) {
        answers.put(command, answer);
        return this;
    }

    /** The inputs {@code command} was given, in order. */
    List<JsonNode> inputs(String command) {
        return requests.stream()
                .filter(request -> request.command().equals(command))
                .map(request -> Json.read(request.input()))
                .toList();
    }

    @Override
    public synchronized Finished run(Request request, Cancellation cancel) {
        requests.add(request);
        Function<JsonNode, Finished> answer = answers.get(request.command());
        if (answer == null) {
            throw new IllegalStateException("no answer for the hook " + request.command());
        }
        return answer.apply(Json.read(request.input()));
    }

    static Finished exit(int code, String stdout, String stderr) {
        return Finished.exited(code, stdout, stderr);
    }
}
