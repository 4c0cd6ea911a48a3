package dev.dockhand.core.model;

import okhttp3.HttpUrl;

/**
 * Which provider a request goes to, for messages that name it, and the secret that must never appear in them.
 *
 * @param provider the provider's name as users know it, as written mid-sentence ("Anthropic", "the OpenAI-compatible
 *     server")
 * @param url the endpoint
 * @param secret the API key, redacted from every message; empty when there is none
 */
public record ProviderEndpoint(String provider, HttpUrl url, String secret) {

    /** "Anthropic at api.anthropic.com", "the OpenAI-compatible server at localhost:8000". */
    public String describe() {
        return provider + " at " + url.host()
                + (url.port() == HttpUrl.defaultPort(url.scheme()) ? "" : ":" + url.port());
    }

    /** {@link #describe} for the start of a sentence. */
    public String describeCapitalized() {
        String text = describe();
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /**
     * Parses a base URL the user gave.
     *
     * @throws IllegalArgumentException with a sentence for the user when it is not http(s)
     */
    public static HttpUrl parseBaseUrl(String baseUrl, String example) {
        HttpUrl base = HttpUrl.parse(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        if (base == null) {
            throw new IllegalArgumentException(
                    "The base URL '" + baseUrl + "' is not an http(s) URL; set it like " + example + ".");
        }
        return base;
    }

    /** Parses one event of the stream, which every provider sends as JSON. */
    public com.fasterxml.jackson.databind.JsonNode parseEvent(String data) throws ProviderException {
        try {
            return dev.dockhand.core.Json.MAPPER.readTree(data);
        } catch (java.io.IOException e) {
            throw new ProviderException(
                    ProviderException.Kind.PROTOCOL,
                    describeCapitalized() + " sent a stream event that is not JSON: " + redact(data),
                    e);
        }
    }

    /** The text with the secret replaced, for anything a user, a log or a transcript will see. */
    public String redact(String text) {
        return secret.isEmpty() || text == null ? text : text.replace(secret, "[redacted]");
    }
}
