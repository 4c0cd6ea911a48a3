package dev.dockhand.core.redaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretValuesTest {
    /** A value of 24 random-looking characters (hand-written), for the names that count only with one. */
    private static final String RANDOM = "q8Zr2LxK7vNw4TpB9cYh3MdF";

    @ParameterizedTest(name = "{0}={1}: {2}")
    @CsvSource({
        "OPENAI_API_KEY, plain, true",
        "API_KEY, plain, true",
        "api_key, plain, true",
        "TOKEN, plain, true",
        "GITHUB_TOKEN, plain, true",
        "npm_token, plain, true",
        "SECRET_KEY, plain, true",
        "AWS_SECRET_ACCESS_KEY, plain, true",
        "CLIENT_SECRET, plain, true",
        "PGPASSWORD, plain, true",
        "DB_PASSWORD_FILE, plain, true",
        "MYSQL_PASSWD, plain, true",
        "GH_PAT, plain, true",
        "DATABASE_URL, postgres://app:pw@db/app, true",
        "ANALYTICS_DATABASE_URL, postgres://app:pw@db/app, true",
        "STRIPE_KEY, " + RANDOM + ", true",
        "STRIPE_KEY, aaaaaaaaaaaaaaaaaaaa, false",
        "MONKEY_KEY, short, false",
        "TOKENIZERS_PARALLELISM, false, false",
        "PATH, /usr/local/bin:/usr/bin, false",
        "PATTERN, plain, false",
        "HOME, /home/u, false",
        "PWD, /home/u/src, false",
    })
    void aVariableIsSecretByItsName(String name, String value, boolean secret) {
        assertEquals(secret, SecretValues.secretVariable(name, value));
    }
}
