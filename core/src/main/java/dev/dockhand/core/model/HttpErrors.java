package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/**
 * Turns HTTP failures into {@link ProviderException}s that name the provider, the status and the provider's own
 * explanation, with the API key redacted.
 */
public final class HttpErrors {
    private static final long MAX_ERROR_BODY = 64 * 1024;

    private HttpErrors() {}

    public static ProviderException fromResponse(Response response, ProviderEndpoint endpoint) {
        int status = response.code();
        String body = errorBody(response.body());
        JsonNode error = errorObject(body);
        String detail = endpoint.redact(error != null ? messageOf(error) : body.strip());
        String message = answered(endpoint, status) + (detail.isEmpty() ? "." : ": " + detail);
        JsonNode param = error == null ? null : error.path("error").get("param");
        return new ProviderException(
                kind(status),
                status,
                message,
                retryAfter(response),
                param != null && param.isTextual() ? param.asText() : null,
                null);
    }

    /** How a failure's message begins, before the provider's own words: "OpenAI answered HTTP 400". */
    public static String answered(ProviderEndpoint endpoint, int status) {
        return endpoint.describeCapitalized() + " answered HTTP " + status;
    }

    public static ProviderException network(ProviderEndpoint endpoint, IOException e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String what = e instanceof SocketTimeoutException || e instanceof InterruptedIOException
                ? "timed out talking to "
                : "could not reach ";
        return new ProviderException(
                ProviderException.Kind.NETWORK,
                capitalize(what) + endpoint.describe() + ": " + endpoint.redact(reason),
                e);
    }

    /** An error object sent inside a stream (or as a whole body), in the provider's words. */
    public static ProviderException inStream(ProviderEndpoint endpoint, JsonNode error, int status) {
        ProviderException.Kind kind = status == 0 ? ProviderException.Kind.SERVER : kind(status);
        String type = error.path("error").path("type").asText("");
        if (type.equals("overloaded_error") || type.equals("rate_limit_error")) {
            kind = type.equals("overloaded_error")
                    ? ProviderException.Kind.SERVER
                    : ProviderException.Kind.RATE_LIMITED;
        }
        return new ProviderException(
                kind,
                status,
                endpoint.describeCapitalized() + " reported an error mid-stream: " + endpoint.redact(messageOf(error)),
                null,
                null);
    }

    private static ProviderException.Kind kind(int status) {
        if (status == 401 || status == 403) {
            return ProviderException.Kind.AUTHENTICATION;
        }
        if (status == 429) {
            return ProviderException.Kind.RATE_LIMITED;
        }
        return status >= 500 ? ProviderException.Kind.SERVER : ProviderException.Kind.BAD_REQUEST;
    }

    /** At most a bounded prefix of the body: a gateway's error page can be large, and only its start helps. */
    private static String errorBody(ResponseBody body) {
        if (body == null) {
            return "";
        }
        try {
            BufferedSource source = body.source();
            source.request(MAX_ERROR_BODY);
            Buffer buffer = source.getBuffer();
            return buffer.clone().readUtf8(Math.min(buffer.size(), MAX_ERROR_BODY));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The error object of a JSON body (Gemini wraps its own in an array when streaming); null when the body is not
     * JSON: gateways often answer with HTML or plain text, which is shown as it is.
     */
    private static JsonNode errorObject(String body) {
        try {
            JsonNode json = Json.MAPPER.readTree(body);
            if (json != null && json.isObject()) {
                return json;
            }
            if (json != null && json.isArray() && json.size() > 0 && json.get(0).isObject()) {
                return json.get(0);
            }
        } catch (IOException notJson) {
            // Shown as text.
        }
        return null;
    }

    /** The human part of an error object: {error:{message}}, {error:"…"}, {message}, or the whole object. */
    public static String messageOf(JsonNode json) {
        JsonNode error = json.get("error");
        if (error != null && error.isObject() && error.hasNonNull("message")) {
            return error.get("message").asText();
        }
        if (error != null && error.isTextual()) {
            return error.asText();
        }
        if (json.hasNonNull("message")) {
            return json.get("message").asText();
        }
        return json.toString();
    }

    private static Duration retryAfter(Response response) {
        String value = response.header("Retry-After");
        if (value == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Long.parseLong(value.strip()));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime when = ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration wait = Duration.between(ZonedDateTime.now(when.getZone()), when);
                return wait.isNegative() ? Duration.ZERO : wait;
            } catch (DateTimeParseException unreadable) {
                return null;
            }
        }
    }

    private static String capitalize(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
