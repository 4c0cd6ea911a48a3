package dev.dockhand.cli.environment;

import java.util.Locale;
import java.util.function.Supplier;

/** Runs a piece of a test under another default locale, and puts the JVM's own back afterwards. */
public final class InLocale {
    private InLocale() {}

    public static <T> T get(Locale locale, Supplier<T> body) {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(locale);
            return body.get();
        } finally {
            Locale.setDefault(before);
        }
    }
}
