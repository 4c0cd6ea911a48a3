package dev.dockhand.core.redaction;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The user's own secrets, known by value rather than by shape: the provider key in use, the environment variables
 * whose names say they hold one, the values named in the user's settings and those passed to commands with
 * {@code --sandbox-env}. Each is found as it is, URL-encoded, and base64-encoded (at each of the three alignments it
 * can have inside a longer base64 text, as in an {@code Authorization: Basic} header).
 */
public final class SecretValues {
    /** Shorter values are too likely to occur by chance in ordinary output. */
    static final int MIN_LENGTH = 8;

    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i)(?:.*_API_KEY|API_KEY|.*_TOKEN|TOKEN|.*SECRET.*|.*PASSWORD.*|.*PASSWD.*|.*_PAT|(?:.*_)?DATABASE_URL)");
    private static final Pattern KEY_NAME = Pattern.compile("(?i).*_KEY$");
    private static final double KEY_ENTROPY = 3.5;

    private final Map<String, String> values = new LinkedHashMap<>();

    /** The value of {@code id} (which names its placeholders: {@code [REDACTED:<id>:1]}); too short ones are skipped. */
    public SecretValues add(String id, String value) {
        if (value != null && value.strip().length() >= MIN_LENGTH) {
            values.putIfAbsent(value.strip(), id);
        }
        return this;
    }

    /** The values of the variables whose names look secret, as {@link #secretVariable} says. */
    public SecretValues addEnvironment(Map<String, String> environment) {
        environment.forEach((name, value) -> {
            if (secretVariable(name, value)) {
                add("env-" + name.replaceAll("[^A-Za-z0-9_]", "_"), value);
            }
        });
        return this;
    }

    /**
     * Whether an environment variable holds a secret, by its name: {@code API_KEY} and {@code *_API_KEY},
     * {@code TOKEN} and {@code *_TOKEN}, {@code *SECRET*}, {@code *PASSWORD*}, {@code *PASSWD*}, {@code *_PAT} (a
     * personal access token), {@code DATABASE_URL} and {@code *_DATABASE_URL} (they carry the database's password),
     * in any case; and {@code *_KEY} when its value looks random (16 characters or more, of high entropy). The one
     * rule for the redactor's known values and for what commands run without a sandbox do not get.
     */
    public static boolean secretVariable(String name, String value) {
        if (value == null) {
            return false;
        }
        if (SECRET_NAME.matcher(name).matches()) {
            return true;
        }
        return KEY_NAME.matcher(name).matches() && value.length() >= 16 && Entropy.shannon(value) >= KEY_ENTROPY;
    }

    List<SecretScanner.Needle> needles() {
        List<SecretScanner.Needle> needles = new ArrayList<>();
        values.forEach((value, id) -> {
            needles.add(new SecretScanner.Needle(value, id));
            String url = URLEncoder.encode(value, StandardCharsets.UTF_8);
            if (!url.equals(value)) {
                needles.add(new SecretScanner.Needle(url, id + "-url"));
                String spaces = url.replace("+", "%20");
                if (!spaces.equals(url)) {
                    needles.add(new SecretScanner.Needle(spaces, id + "-url"));
                }
            }
            for (String form : base64(value)) {
                needles.add(new SecretScanner.Needle(form, id + "-base64"));
                String urlSafe = form.replace('+', '-').replace('/', '_');
                if (!urlSafe.equals(form)) {
                    needles.add(new SecretScanner.Needle(urlSafe, id + "-base64"));
                }
            }
        });
        return needles;
    }

    /**
     * The base64 text of {@code value} at each of the three byte offsets it can start at in a longer encoded text:
     * only the characters that depend on the value's bytes alone, so each is found whatever surrounds it.
     */
    static List<String> base64(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        List<String> forms = new ArrayList<>();
        for (int offset = 0; offset < 3; offset++) {
            byte[] shifted = new byte[offset + bytes.length];
            System.arraycopy(bytes, 0, shifted, offset, bytes.length);
            String encoded = Base64.getEncoder().withoutPadding().encodeToString(shifted);
            int bitsBefore = 8 * offset;
            int start = (bitsBefore + 5) / 6;
            int end = (bitsBefore + 8 * bytes.length) / 6;
            if (end - start >= MIN_LENGTH) {
                forms.add(encoded.substring(start, end));
            }
        }
        return forms;
    }

    /** How many values are known, for the user's information. */
    public int size() {
        return values.size();
    }
}
