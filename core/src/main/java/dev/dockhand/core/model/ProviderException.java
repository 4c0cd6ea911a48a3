package dev.dockhand.core.model;

import java.time.Duration;
import java.util.Optional;

/**
 * A model request that failed. The message names the provider, the HTTP status when there was one, and the
 * provider's own explanation, and never contains the API key.
 */
public final class ProviderException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What kind of failure, which decides the exit code and whether a retry can help. */
    public enum Kind {
        /** 401 or 403: the key is missing, wrong or lacks access. */
        AUTHENTICATION,
        /** 429: too many requests or quota; may carry a Retry-After. */
        RATE_LIMITED,
        /** Another 4xx: the request itself was refused (bad model name, context too long, invalid history). */
        BAD_REQUEST,
        /** 5xx: the provider failed. */
        SERVER,
        /** The connection failed or timed out. */
        NETWORK,
        /** The provider answered something we could not read as a reply stream. */
        PROTOCOL
    }

    private final Kind kind;
    private final int httpStatus;
    private final transient Duration retryAfter;
    private final String param;

    public ProviderException(Kind kind, int httpStatus, String message, Duration retryAfter, Throwable cause) {
        this(kind, httpStatus, message, retryAfter, null, cause);
    }

    /** A failure whose error names the request field it refused ({@code param}, or null when it names none). */
    public ProviderException(
            Kind kind, int httpStatus, String message, Duration retryAfter, String param, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.retryAfter = retryAfter;
        this.param = param;
    }

    public ProviderException(Kind kind, String message, Throwable cause) {
        this(kind, 0, message, null, cause);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when the failure happened before or outside an HTTP response. */
    public int httpStatus() {
        return httpStatus;
    }

    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /**
     * The request field the provider's error names as the one it refused: OpenAI's {@code error.param}, such as
     * {@code reasoning.summary}; empty when it names none.
     */
    public Optional<String> param() {
        return Optional.ofNullable(param);
    }
}
