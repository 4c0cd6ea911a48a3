package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The validator's dialect is 2020-12 without the library's format checkers; these pin that every keyword the
 * {@link Schema} builder writes is still enforced, and that a {@code format} is only an annotation.
 */
class CallValidatorTest {
    private final Everything everything = new Everything();
    private final CallValidator validator = new CallValidator(new ToolRegistry(List.of(everything)));

    @Test
    void everyKeywordTheSchemaBuilderWritesIsEnforced() {
        Map<String, String> outcomes = new TreeMap<>();
        for (String arguments : List.of(
                "{}",
                "{\"path\":7}",
                "{\"path\":\"a\",\"count\":0}",
                "{\"path\":\"a\",\"count\":11}",
                "{\"path\":\"a\",\"count\":1.5}",
                "{\"path\":\"a\",\"flag\":\"yes\"}",
                "{\"path\":\"a\",\"mode\":\"c\"}",
                "{\"path\":\"a\",\"names\":[\"x\",2]}",
                "{\"path\":\"a\",\"extra\":true}")) {
            outcomes.put(arguments, outcome(arguments));
        }

        String retry = ". Call it again with arguments that match its schema.";
        Map<String, String> expected = new TreeMap<>(Map.of(
                "{}", "Invalid arguments for everything: $: required property 'path' not found" + retry,
                "{\"path\":7}", "Invalid arguments for everything: $.path: integer found, string expected" + retry,
                "{\"path\":\"a\",\"count\":0}",
                        "Invalid arguments for everything: $.count: must have a minimum value of 1" + retry,
                "{\"path\":\"a\",\"count\":11}",
                        "Invalid arguments for everything: $.count: must have a maximum value of 10" + retry,
                "{\"path\":\"a\",\"count\":1.5}",
                        "Invalid arguments for everything: $.count: number found, integer expected" + retry,
                "{\"path\":\"a\",\"flag\":\"yes\"}",
                        "Invalid arguments for everything: $.flag: string found, boolean expected" + retry,
                "{\"path\":\"a\",\"mode\":\"c\"}",
                        "Invalid arguments for everything: $.mode: does not have a value in the enumeration"
                                + " [\"fast\", \"slow\"]" + retry,
                "{\"path\":\"a\",\"names\":[\"x\",2]}",
                        "Invalid arguments for everything: $.names[1]: integer found, string expected" + retry,
                "{\"path\":\"a\",\"extra\":true}",
                        "Invalid arguments for everything: $: property 'extra' is not defined in the schema and the"
                                + " schema does not allow additional properties" + retry));
        assertEquals(expected, outcomes);
    }

    @Test
    void argumentsThatMatchBindToTheParametersRecord() {
        CallValidator.Outcome outcome = validator.validate(new ToolCall(
                "c1",
                "everything",
                "{\"path\":\"a\",\"count\":10,\"flag\":true,\"mode\":\"slow\",\"names\":[\"x\"],\"when\":\"soon\"}"));

        assertEquals(
                new Everything.Params("a", 10, true, "slow", List.of("x"), "soon"),
                ((CallValidator.Valid) outcome).prepared().params());
    }

    @Test
    void aWarmedValidatorCompilesEachSchemaOnceAndTheCallsReuseIt() {
        int before = everything.schemasRead.get();

        validator.warm();
        validator.validate(new ToolCall("c1", "everything", "{\"path\":\"a\"}"));
        validator.validate(new ToolCall("c2", "everything", "{\"path\":7}"));

        assertEquals(1, everything.schemasRead.get() - before);
    }

    @Test
    void argumentsQuotedInAnErrorAreCutBetweenWholeCharacters() {
        // A JSON string, not an object; U+1F600 straddles the 300-char quote limit.
        String arguments = "\"" + "x".repeat(298) + "\uD83D\uDE00" + "y".repeat(50) + "\"";

        assertEquals(
                "The arguments for everything must be a JSON object, not `\"" + "x".repeat(298) + "…`.",
                outcome(arguments));
    }

    private String outcome(String arguments) {
        CallValidator.Outcome outcome = validator.validate(new ToolCall("c1", "everything", arguments));
        return outcome instanceof CallValidator.Invalid invalid
                ? invalid.result().llmContent()
                : "valid";
    }

    /** A tool whose schema uses everything {@link Schema} can write, and a {@code format}. */
    private static final class Everything implements Tool<Everything.Params> {
        record Params(String path, Integer count, Boolean flag, String mode, List<String> names, String when) {}

        final AtomicInteger schemasRead = new AtomicInteger();

        @Override
        public String name() {
            return "everything";
        }

        @Override
        public String description() {
            return "Takes every kind of parameter.";
        }

        @Override
        public ObjectNode parameterSchema() {
            schemasRead.incrementAndGet();
            ObjectNode when = Schema.string("A date-time, by its format; the format is not checked.");
            when.put("format", "date-time");
            return Schema.object()
                    .required("path", Schema.string("A path."))
                    .optional("count", Schema.integer("How many.", 1, 10))
                    .optional("flag", Schema.bool("Whether."))
                    .optional("mode", Schema.enumeration("How.", "fast", "slow"))
                    .optional("names", Schema.array("Names.", Schema.string("A name.")))
                    .optional("when", when)
                    .build();
        }

        @Override
        public ToolKind kind() {
            return ToolKind.READ;
        }

        @Override
        public Class<Params> paramsType() {
            return Params.class;
        }

        @Override
        public String summarize(Params params) {
            return params.path();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            return ToolResult.success("ran", "ran");
        }
    }
}
