package dev.dockhand.core.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Reads settings files strictly: an unknown key, a value of the wrong type (no quietly turning "10" into 10 or 1.5
 * into 1) or a file that is not JSON is an error naming the file, the key and what was expected.
 */
public final class SettingsFiles {
    private SettingsFiles() {}

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

        private Strict() {}
    }

    /** The settings in {@code file}, or {@link Settings#EMPTY} when there is no such file. */
    public static Settings read(Path file) throws SettingsException {
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
        try {
            return Strict.MAPPER.readValue(text, Settings.class);
        } catch (UnrecognizedPropertyException e) {
            throw new SettingsException(
                    file + ": '" + path(e) + "' is not a setting; the settings at that level"
                            + " are "
                            + e.getKnownPropertyIds().stream()
                                    .map(String::valueOf)
                                    .sorted()
                                    .collect(Collectors.joining(", "))
                            + ".",
                    e);
        } catch (MismatchedInputException e) {
            throw new SettingsException(file + ": '" + path(e) + "' must be " + expected(e.getTargetType()) + ".", e);
        } catch (JsonProcessingException e) {
            throw new SettingsException(
                    file + " is not valid JSON at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(),
                    e);
        }
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
        if (java.util.List.class.isAssignableFrom(type)) {
            return "a list of strings";
        }
        return "an object";
    }
}
