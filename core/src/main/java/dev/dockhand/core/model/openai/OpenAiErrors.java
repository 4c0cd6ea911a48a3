package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ProviderException;
import java.io.IOException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import okhttp3.HttpUrl;
import okhttp3.Response;
import okhttp3.ResponseBody;

/** Turns HTTP failures into {@link ProviderException}s that carry the provider's own words, minus the key. */
final class OpenAiErrors {
    private static final long MAX_ERROR_BODY = 64 * 1024;

    private OpenAiErrors() {}

    static ProviderException fromResponse(Response response, HttpUrl endpoint, String apiKey) {
        int status = response.code();
        String detail = redact(providerMessage(response.body()), apiKey);
        String message = "The provider at " + endpoint.host() + " answered HTTP " + status
                + (detail.isEmpty() ? "." : ": " + detail);
        return new ProviderException(kind(status), status, message, retryAfter(response), null);
    }

    static ProviderException network(HttpUrl endpoint, IOException e, String apiKey) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new ProviderException(
                ProviderException.Kind.NETWORK,
                "Could not reach the provider at " + endpoint.host() + ":" + endpoint.port() + ": "
                        + redact(reason, apiKey),
                e);
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

    private static String providerMessage(ResponseBody body) {
        if (body == null) {
            return "";
        }
        String text;
        try {
            // Read at most a bounded prefix: a gateway's error page can be large, and only its start helps.
            okio.BufferedSource source = body.source();
            source.request(MAX_ERROR_BODY);
            okio.Buffer buffer = source.getBuffer();
            text = buffer.clone().readUtf8(Math.min(buffer.size(), MAX_ERROR_BODY));
        } catch (IOException e) {
            return "";
        }
        try {
            JsonNode json = Json.MAPPER.readTree(text);
            if (json != null && json.isObject()) {
                return messageOf(json);
            }
        } catch (IOException notJson) {
            // Gateways often answer with HTML or plain text; show it as it is.
        }
        return text.strip();
    }

    /** The human part of an error object, in the shapes servers use: {error:{message}}, {error:"…"}, {message}. */
    static String messageOf(JsonNode json) {
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

    static String redact(String text, String apiKey) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "[redacted]");
    }
}
