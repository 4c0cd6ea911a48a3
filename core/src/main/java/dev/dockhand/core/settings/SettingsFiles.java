package dev.dockhand.core.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads settings files strictly: an unknown key, a value of the wrong type (no quietly turning "10" into 10 or 1.5
 * into 1) or a file that is not JSON is an error naming the file, the key and what was expected. The keys are the
 * blocks of {@link Settings} and the option keys the caller declares ({@link Key}): core knows no option, the
 * command line's table does, and gives its keys here, so an option is declared once.
 */
public final class SettingsFiles {
    private SettingsFiles() {}

    /**
     * One option key of the settings files, dotted for a key inside an object ({@code sandbox.pids}), and the type
     * of its value: {@code String}, a boxed number or boolean, or {@code List}/{@code Map} (with string keys) of
     * {@code element}.
     */
    public record Key(String name, Class<?> type, Class<?> element) {
        public Key(String name, Class<?> type) {
            this(name, type, null);
        }
    }

    /**
     * The strict mapper, built on first use: most runs have no settings file, and building a mapper on a cold JVM
     * costs tens of milliseconds of start-up.
     */
    private static final class Strict {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfigDefaults(
                        config -> config.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .build();

        /** The top-level keys that are blocks of the record rather than options. */
        static final Set<String> BLOCKS = Arrays.stream(Settings.class.getRecordComponents())
                .map(RecordComponent::getName)
                .filter(name -> !name.equals("options"))
                .collect(Collectors.toUnmodifiableSet());

        private Strict() {}
    }

    /**
     * The settings in {@code file}, or {@link Settings#EMPTY} when there is no such file; {@code options} are the
     * option keys a file may hold besides the blocks of {@link Settings}.
     */
    public static Settings read(Path file, Collection<Key> options) throws SettingsException {
        if (!Files.isRegularFile(file)) {
            return Settings.EMPTY;
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new SettingsException(file + " cannot be read: " + e.getMessage(), e);
        }
        if (text.isBlank()) {
            return Settings.EMPTY;
        }
        JsonNode root;
        try {
            root = Strict.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new SettingsException(
                    file + " is not valid JSON at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(),
                    e);
        }
        if (!(root instanceof ObjectNode object)) {
            throw new SettingsException(file + " must hold one JSON object, like {\"model\": \"gpt-4.1\"}.");
        }
        Map<String, Key> declared = new HashMap<>();
        for (Key key : options) {
            declared.put(key.name(), key);
        }
        Map<String, Object> values = new HashMap<>();
        ObjectNode blocks = object.objectNode();
        level(file, object, "", declared, values, blocks);
        Settings settings = bind(file, blocks, Strict.MAPPER.constructType(Settings.class), "");
        return settings.withOptions(values);
    }

    /**
     * Sorts one object's keys: a block goes to {@code blocks} for the record, an option's value is read as its type
     * into {@code values}, an object holding options is read the same way, and any other key is an error.
     */
    private static void level(
            Path file,
            ObjectNode node,
            String prefix,
            Map<String, Key> declared,
            Map<String, Object> values,
            ObjectNode blocks)
            throws SettingsException {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String name = prefix + field.getKey();
            JsonNode value = field.getValue();
            Key option = declared.get(name);
            if (prefix.isEmpty() && Strict.BLOCKS.contains(name)) {
                blocks.set(name, value);
            } else if (option != null) {
                if (!value.isNull()) {
                    values.put(name, bind(file, value, type(option), name));
                }
            } else if (!parts(declared, name + ".").isEmpty()) {
                if (value instanceof ObjectNode group) {
                    level(file, group, name + ".", declared, values, blocks);
                } else if (!value.isNull()) {
                    throw new SettingsException(file + ": '" + name + "' must be an object.");
                }
            } else {
                Set<String> known = parts(declared, prefix);
                if (prefix.isEmpty()) {
                    known.addAll(Strict.BLOCKS);
                }
                throw new SettingsException(file + ": '" + name + "' is not a setting; the settings at that level are "
                        + String.join(", ", known) + ".");
            }
        }
    }

    /** The next part of each declared key under {@code prefix}, sorted: {@code pids} of {@code sandbox.pids}. */
    private static Set<String> parts(Map<String, Key> declared, String prefix) {
        Set<String> parts = new TreeSet<>();
        for (String name : declared.keySet()) {
            if (name.startsWith(prefix)) {
                String rest = name.substring(prefix.length());
                parts.add(rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
            }
        }
        return parts;
    }

    private static JavaType type(Key key) {
        TypeFactory types = Strict.MAPPER.getTypeFactory();
        if (key.type() == List.class) {
            return types.constructCollectionType(List.class, key.element());
        }
        if (key.type() == Map.class) {
            return types.constructMapType(Map.class, String.class, key.element());
        }
        return types.constructType(key.type());
    }

    /** {@code node} as {@code type}; an error names the key as {@code prefix} and the path inside the value. */
    private static <T> T bind(Path file, JsonNode node, JavaType type, String prefix) throws SettingsException {
        try {
            return Strict.MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new SettingsException(
                    file + ": '" + path(prefix, e) + "' is not a setting; the settings at that level"
                            + " are "
                            + e.getKnownPropertyIds().stream()
                                    .map(String::valueOf)
                                    .sorted()
                                    .collect(Collectors.joining(", "))
                            + ".",
                    e);
        } catch (MismatchedInputException e) {
            throw new SettingsException(
                    file + ": '" + path(prefix, e) + "' must be " + expected(e.getTargetType()) + ".", e);
        } catch (JsonProcessingException e) {
            throw new SettingsException(file + ": '" + prefix + "' cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    private static String path(String prefix, MismatchedInputException e) {
        String inside = path(e);
        if (prefix.isEmpty() || inside.isEmpty()) {
            return prefix + inside;
        }
        return inside.startsWith("[") ? prefix + inside : prefix + "." + inside;
    }

    private static String path(MismatchedInputException e) {
        return e.getPath().stream()
                .map(reference ->
                        reference.getFieldName() != null ? reference.getFieldName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list of strings";
        }
        return "an object";
    }
}
