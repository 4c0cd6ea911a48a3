package dev.dockhand.core.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.ValidatorTypeCode;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Turns a raw call into a {@link PreparedCall} or an error result for the model: unknown tool, arguments that are not
 * a JSON object, a schema violation (naming the field), or the tool's own checks. Never throws for model mistakes.
 */
final class CallValidator {
    private static final int QUOTE_LIMIT = 300;
    /** How much of a malformed tool name the error result quotes: enough to recognise it. */
    private static final int NAME_LIMIT = 80;

    private final ToolRegistry registry;
    /** Keyed by the tool itself: a tool that comes back under the same name with a new schema (MCP) compiles anew. */
    private final Map<Tool<?>, JsonSchema> schemas = new ConcurrentHashMap<>();

    CallValidator(ToolRegistry registry) {
        this.registry = registry;
    }

    /** Either a prepared call or the error result to send back. */
    sealed interface Outcome {}

    record Valid(PreparedCall<?> prepared) implements Outcome {}

    record Invalid(ToolResult result) implements Outcome {}

    Outcome validate(ToolCall call) {
        Optional<Tool<?>> tool = registry.find(call.name());
        if (tool.isEmpty()) {
            if (call.name().equals(ToolCall.MISSING_NAME)) {
                // The provider streamed a call without a name; the reader kept it under this placeholder.
                return invalid(
                        ToolErrorType.UNKNOWN_TOOL,
                        "Your tool call had no tool name, so nothing ran ("
                                + (call.arguments().isBlank()
                                        ? "it had no arguments either"
                                        : "its arguments were " + quote(call.arguments()))
                                + "). " + offered("Call again with the name of one of these tools: "));
            }
            if (!ToolCall.isWireName(call.name())) {
                // The name goes back to the provider as the placeholder, which no API refuses; the model hears what
                // it wrote here, once, so it can correct itself.
                return invalid(
                        ToolErrorType.UNKNOWN_TOOL,
                        "Your tool call named " + quoteName(call.name()) + " was not run: no tool has that name, and"
                                + " a tool name has only letters, digits, _ and - (the call shows as "
                                + ToolCall.INVALID_NAME + " in the history). "
                                + offered("Call again with the name of one of these tools: "));
            }
            Optional<String> withheld = registry.withheld(call.name());
            if (withheld.isPresent()) {
                return invalid(
                        ToolErrorType.NOT_APPROVED,
                        "The " + call.name() + " call was not run: " + withheld.get() + ", so it is not available in"
                                + " this session. "
                                + (registry.names().isEmpty()
                                        ? "Do without it: this session offers no tools."
                                        : offered("Do without it; the tools you have are: ")));
            }
            return invalid(
                    ToolErrorType.UNKNOWN_TOOL, "Unknown tool '" + call.name() + "'. " + offered("Available tools: "));
        }
        JsonNode arguments;
        try {
            arguments = call.arguments().isBlank() ? Json.object() : Json.MAPPER.readTree(call.arguments());
        } catch (JsonProcessingException e) {
            return invalid(
                    ToolErrorType.INVALID_PARAMS,
                    "The arguments for " + call.name() + " are not valid JSON ("
                            + e.getOriginalMessage() + " at line "
                            + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + "): " + quote(call.arguments())
                            + ". Call it again with a JSON object that matches its schema.");
        }
        if (arguments == null || !arguments.isObject()) {
            return invalid(
                    ToolErrorType.INVALID_PARAMS,
                    "The arguments for " + call.name() + " must be a JSON object, not " + quote(call.arguments())
                            + ".");
        }
        return bind(call, tool.get(), arguments);
    }

    /**
     * The end of a refusal that names the tools the model may call: {@code lead} and their names, or, when a session
     * offers none (every tool excluded), that it has none.
     */
    private String offered(String lead) {
        List<String> names = registry.names();
        return names.isEmpty() ? "This session offers no tools." : lead + String.join(", ", names) + ".";
    }

    private <P> Outcome bind(ToolCall call, Tool<P> tool, JsonNode arguments) {
        Set<ValidationMessage> violations = schema(tool).validate(arguments);
        if (!violations.isEmpty()) {
            String problems = violations.stream()
                    .map(ValidationMessage::getMessage)
                    .sorted()
                    .collect(Collectors.joining("; "));
            return invalid(
                    ToolErrorType.INVALID_PARAMS,
                    "Invalid arguments for " + call.name() + ": " + problems
                            + ". Call it again with arguments that match its schema.");
        }
        P params;
        try {
            params = Json.MAPPER.treeToValue(arguments, tool.paramsType());
        } catch (JsonProcessingException e) {
            return invalid(
                    ToolErrorType.INVALID_PARAMS,
                    "Invalid arguments for " + call.name() + ": " + e.getOriginalMessage() + ".");
        }
        Optional<String> problem = tool.validate(params);
        if (problem.isPresent()) {
            return invalid(ToolErrorType.INVALID_PARAMS, "Invalid arguments for " + call.name() + ": " + problem.get());
        }
        return new Valid(new PreparedCall<>(call, tool, params, tool.summarize(params)));
    }

    private JsonSchema schema(Tool<?> tool) {
        return schemas.computeIfAbsent(tool, CallValidator::compile);
    }

    private static JsonSchema compile(Tool<?> tool) {
        return Dialect.FACTORY.getSchema(tool.parameterSchema());
    }

    /**
     * JSON Schema 2020-12 as the library defines it, less its {@code format} checkers, which tool schemas do not use
     * (see {@link dev.dockhand.core.tool.Schema}): the library's stock dialect compiles dozens of them (e-mail, IRI,
     * IDN host name, date-time parsers) at first use, about 9 ms of the validator's start-up. A {@code format} is
     * then an annotation, as 2020-12's format-annotation vocabulary defines it. A holder class, so that the factory
     * is built at the first validation, not when the scheduler is.
     */
    private static final class Dialect {
        private static final String IRI = "https://json-schema.org/draft/2020-12/schema";
        private static final String VOCABULARY = "https://json-schema.org/draft/2020-12/vocab/";
        private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.builder()
                .defaultMetaSchemaIri(IRI)
                .metaSchema(JsonMetaSchema.builder(IRI)
                        .specification(SpecVersion.VersionFlag.V202012)
                        .idKeyword("$id")
                        .keywords(ValidatorTypeCode.getKeywords(SpecVersion.VersionFlag.V202012))
                        .keyword(new NonValidationKeyword("definitions"))
                        .vocabularies(vocabularies -> {
                            for (String name : List.of(
                                    "core",
                                    "applicator",
                                    "unevaluated",
                                    "validation",
                                    "meta-data",
                                    "format-annotation",
                                    "content")) {
                                vocabularies.put(VOCABULARY + name, true);
                            }
                        })
                        .build())
                .build();
    }

    /**
     * Starts the validator up: its dialect, Jackson's binding of parameter records, and the first tool's schema
     * (read_file among the built-ins, the usual first call), compiled into this validator. Run on a spare thread
     * before the first call, which then finds its schema compiled, or waits only for the rest. The other schemas
     * compile at their tools' first calls, a few milliseconds each: compiled here too, they competed with the next
     * rounds for the cores (rounds two to four took 1 to 2 ms longer each).
     */
    void warm() {
        if (registry.tools().isEmpty()) {
            return;
        }
        Tool<?> tool = registry.tools().get(0);
        schema(tool).validate(Json.object());
        try {
            // Jackson builds and caches each record's deserializer at its first use; the cache is shared.
            Json.MAPPER.treeToValue(Json.object(), tool.paramsType());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // A tool whose parameters cannot be empty: the schema's classes are loaded all the same.
        }
    }

    private static Invalid invalid(ToolErrorType type, String message) {
        return new Invalid(ToolResult.error(type, message));
    }

    /**
     * A name the model wrote, as a line it can read: control and invisible format characters as escapes (a
     * backslash, u, the hex code), cut after {@value #NAME_LIMIT} characters.
     */
    static String quoteName(String name) {
        StringBuilder shown = new StringBuilder();
        int count = 0;
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            i += Character.charCount(c);
            if (count++ == NAME_LIMIT) {
                shown.append('…');
                break;
            }
            int type = Character.getType(c);
            if (Character.isISOControl(c)
                    || type == Character.FORMAT
                    || type == Character.SURROGATE
                    || type == Character.UNASSIGNED
                    || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                shown.append(String.format("\\u%04x", c));
            } else {
                shown.append(Character.toChars(c));
            }
        }
        return "`" + shown + "`";
    }

    private static String quote(String text) {
        String cut = text.length() > QUOTE_LIMIT ? Utf16.head(text, QUOTE_LIMIT) + "…" : text;
        return "`" + cut + "`";
    }
}
