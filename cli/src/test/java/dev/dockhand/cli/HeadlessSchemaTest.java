package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The schema every headless test's stdout is checked against refuses what integrators could not rely on. */
public class HeadlessSchemaTest {
    private static final String RESULT =
            """
            {"type":"result","schema_version":1,"session_id":"s","answer":"a","turns":1,"tool_calls":[],\
            "usage":{"input_tokens":1,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":1,\
            "reasoning_tokens":0,"estimated":false,"cost_usd":null},"duration_ms":3,"exit_code":0,"error":null}""";

    @Test
    void aResultAsDocumentedIsValidAndMayGainFields() {
        assertEquals(
                List.of(),
                HeadlessSchema.problems(
                        RESULT + "\n" + RESULT.replace("\"turns\":1", "\"turns\":1,\"new_field\":true")));
    }

    @Test
    void anObjectWithoutSchemaVersionOrWithAnotherIsRefused() {
        assertEquals(
                2,
                HeadlessSchema.problems(RESULT.replace("\"schema_version\":1,", "") + "\n"
                                + RESULT.replace("\"schema_version\":1", "\"schema_version\":2"))
                        .stream()
                        .map(problem -> problem.substring(problem.indexOf(" in ")))
                        .distinct()
                        .count());
    }

    @Test
    void aMissingRequiredFieldOrAnUnknownTypeIsRefused() {
        List<String> problems = HeadlessSchema.problems(
                RESULT.replace("\"exit_code\":0,", "") + "\n{\"type\":\"surprise\",\"schema_version\":1}");

        assertEquals(
                List.of(true, true),
                List.of(
                        problems.stream().anyMatch(problem -> problem.contains("exit_code")),
                        problems.stream().anyMatch(problem -> problem.contains("surprise"))));
    }

    @Test
    void theOutputFormatIsFoundInEitherSpelling() {
        assertEquals(
                List.of(true, true, false, false),
                List.of(
                        HeadlessSchema.machineOutput(List.of("--output-format", "stream-json", "-p", "x")),
                        HeadlessSchema.machineOutput(List.of("--output-format=json")),
                        HeadlessSchema.machineOutput(List.of("--output-format", "text")),
                        HeadlessSchema.machineOutput(List.of("-p", "--output-format"))));
    }
}
