package dev.dockhand.core.redaction;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Random values of each rule's real shape, as the services issue them: never the documentation examples, which
 * detectors skip on purpose. Each is a line of output holding one secret; {@link Sample#secret} is what must go.
 */
final class SecretShapes {
    static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    static final String DIGITS = "0123456789";
    static final String ALNUM = UPPER + LOWER + DIGITS;
    static final String HEX = "0123456789abcdef";
    static final String WORD = ALNUM + "_";
    static final String URLSAFE = ALNUM + "_-";

    private SecretShapes() {}

    /** A line holding a secret, and the secret. */
    record Sample(String line, String secret) {}

    static String of(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    /** Every rule id of the data file with a generator of its shape. */
    static Map<String, Function<Random, Sample>> all() {
        Map<String, Function<Random, Sample>> shapes = new LinkedHashMap<>();
        shapes.put(
                "age-secret-key",
                r -> token("key: ", "AGE-SECRET-KEY-1" + of(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)));
        shapes.put("anthropic-admin-api-key", r -> token("export K=", "sk-ant-admin01-" + of(r, URLSAFE, 93) + "AA"));
        shapes.put("anthropic-api-key", r -> token("export K=", "sk-ant-api03-" + of(r, URLSAFE, 93) + "AA"));
        shapes.put("aws-access-token", r -> token("id ", "AKIA" + of(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)));
        shapes.put(
                "azure-ad-client-secret",
                r -> token("secret=", of(r, ALNUM, 3) + of(r, DIGITS, 1) + "Q~" + of(r, ALNUM + "_~.-", 32)));
        shapes.put("databricks-api-token", r -> token("t ", "dapi" + of(r, HEX, 32)));
        shapes.put("digitalocean-access-token", r -> token("t ", "doo_v1_" + of(r, HEX, 64)));
        shapes.put("digitalocean-pat", r -> token("t ", "dop_v1_" + of(r, HEX, 64)));
        shapes.put("digitalocean-refresh-token", r -> token("t ", "dor_v1_" + of(r, HEX, 64)));
        shapes.put("gcp-api-key", r -> token("key ", "AIza" + of(r, URLSAFE, 35)));
        shapes.put("generic-api-key", r -> {
            // With a digit, as issued keys have (gitleaks takes a value of letters alone for a name), and without
            // vowels and the letters of md5, http, smtp, vpn, www: a value holding one of gitleaks' 1,445 stopwords
            // ("slim", "java") is allowed on purpose.
            String alphabet = "BCDFGJKLNQRSZbcdfgjklnqrsz123456789";
            String secret = of(r, alphabet, 16) + of(r, DIGITS.substring(1), 1) + of(r, alphabet, 15);
            return new Sample("  \"api_key\": \"" + secret + "\",", secret);
        });
        sourceHosts(shapes);
        others(shapes);
        return shapes;
    }

    /** GitHub's and GitLab's tokens. */
    private static void sourceHosts(Map<String, Function<Random, Sample>> shapes) {
        shapes.put("github-app-token", r -> token("t ", "ghs_" + of(r, ALNUM, 36)));
        shapes.put("github-fine-grained-pat", r -> token("t ", "github_pat_" + of(r, WORD, 82)));
        shapes.put("github-oauth", r -> token("t ", "gho_" + of(r, ALNUM, 36)));
        shapes.put("github-pat", r -> token("t ", "ghp_" + of(r, ALNUM, 36)));
        shapes.put("github-refresh-token", r -> token("t ", "ghr_" + of(r, ALNUM, 36)));
        shapes.put(
                "gitlab-cicd-job-token",
                r -> token("t ", "glcbt-" + of(r, ALNUM, 1 + r.nextInt(5)) + "_" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-deploy-token", r -> token("t ", "gldt-" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-feature-flag-client-token", r -> token("t ", "glffct-" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-feed-token", r -> token("t ", "glft-" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-incoming-mail-token", r -> token("t ", "glimt-" + of(r, URLSAFE, 25)));
        shapes.put("gitlab-kubernetes-agent-token", r -> token("t ", "glagent-" + of(r, URLSAFE, 50)));
        shapes.put("gitlab-oauth-app-secret", r -> token("t ", "gloas-" + of(r, URLSAFE, 64)));
        shapes.put("gitlab-pat", r -> token("t ", "glpat-" + of(r, URLSAFE, 20)));
        shapes.put(
                "gitlab-pat-routable", r -> token("t ", "glpat-" + of(r, ALNUM, 40) + "." + of(r, LOWER + DIGITS, 9)));
        shapes.put("gitlab-ptt", r -> token("t ", "glptt-" + of(r, HEX, 40)));
        shapes.put("gitlab-rrt", r -> token("t ", "GR1348941" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-runner-authentication-token", r -> token("t ", "glrt-" + of(r, URLSAFE, 20)));
        shapes.put(
                "gitlab-runner-authentication-token-routable",
                r -> token(
                        "t ", "glrt-t" + of(r, DIGITS, 1) + "_" + of(r, ALNUM, 40) + "." + of(r, LOWER + DIGITS, 9)));
        shapes.put("gitlab-scim-token", r -> token("t ", "glsoat-" + of(r, URLSAFE, 20)));
        shapes.put("gitlab-session-cookie", r -> token("Cookie: ", "_gitlab_session=" + of(r, LOWER + DIGITS, 32)));
    }

    /** The other services' tokens and the generic shapes. */
    private static void others(Map<String, Function<Random, Sample>> shapes) {
        shapes.put("heroku-api-key-v2", r -> token("t ", "HRKU-AA" + of(r, URLSAFE, 58)));
        shapes.put("huggingface-access-token", r -> token("t ", "hf_" + of(r, UPPER + LOWER, 34)));
        shapes.put("huggingface-organization-api-token", r -> token("t ", "api_org_" + of(r, UPPER + LOWER, 34)));
        shapes.put(
                "jwt",
                r -> token("Bearer ", "eyJ" + of(r, ALNUM, 33) + ".eyJ" + of(r, ALNUM, 60) + "." + of(r, URLSAFE, 43)));
        shapes.put("jwt-base64", r -> {
            // Its class takes newlines (base64 wrapped over lines), so only a space ends it.
            String secret = "ZXlKaGJHY2lPaU" + of(r, ALNUM + "+/", 80);
            return new Sample("t " + secret + " end", secret);
        });
        shapes.put(
                "npm-access-token",
                r -> token("//registry.npmjs.org/:_authToken=", "npm_" + of(r, LOWER + DIGITS, 36)));
        shapes.put(
                "openai-api-key", r -> token("t ", "sk-proj-" + of(r, URLSAFE, 74) + "T3BlbkFJ" + of(r, URLSAFE, 74)));
        shapes.put("private-key", SecretShapes::privateKey);
        shapes.put("pypi-upload-token", r -> token("t ", "pypi-AgEIcHlwaS5vcmc" + of(r, URLSAFE, 70)));
        shapes.put("sendgrid-api-token", r -> token("t ", "SG." + of(r, URLSAFE, 22) + "." + of(r, URLSAFE, 43)));
        shapes.put("shopify-access-token", r -> token("t ", "shpat_" + of(r, HEX, 32)));
        shapes.put("shopify-custom-access-token", r -> token("t ", "shpca_" + of(r, HEX, 32)));
        shapes.put("shopify-private-app-access-token", r -> token("t ", "shppa_" + of(r, HEX, 32)));
        shapes.put("shopify-shared-secret", r -> token("t ", "shpss_" + of(r, HEX, 32)));
        shapes.put(
                "slack-app-token",
                r -> token(
                        "t ", "xapp-1-A" + of(r, UPPER + DIGITS, 10) + "-" + of(r, DIGITS, 13) + "-" + of(r, HEX, 64)));
        shapes.put(
                "slack-bot-token",
                r -> token("t ", "xoxb-" + of(r, DIGITS, 12) + "-" + of(r, DIGITS, 13) + "-" + of(r, ALNUM, 24)));
        shapes.put("slack-config-access-token", r -> token("t ", "xoxe.xoxp-1-" + of(r, UPPER + DIGITS, 164)));
        shapes.put("slack-config-refresh-token", r -> token("t ", "xoxe-1-" + of(r, UPPER + DIGITS, 146)));
        shapes.put(
                "slack-legacy-bot-token",
                r -> token("t ", "xoxb-" + of(r, DIGITS, 9) + "-" + of(r, UPPER + LOWER, 1) + of(r, ALNUM, 23)));
        shapes.put(
                "slack-legacy-token",
                r -> token(
                        "t ",
                        "xoxs-" + of(r, DIGITS, 10) + "-" + of(r, DIGITS, 10) + "-" + of(r, DIGITS, 12) + "-"
                                + of(r, HEX, 64)));
        shapes.put("slack-legacy-workspace-token", r -> token("t ", "xoxa-2-" + of(r, ALNUM, 40)));
        shapes.put(
                "slack-user-token",
                r -> token(
                        "t ",
                        "xoxp-" + of(r, DIGITS, 12) + "-" + of(r, DIGITS, 12) + "-" + of(r, DIGITS, 13) + "-"
                                + of(r, ALNUM, 32)));
        shapes.put(
                "slack-webhook-url",
                r -> token(
                        "url ",
                        "https://hooks.slack.com/services/T" + of(r, UPPER + DIGITS, 8) + "/B"
                                + of(r, UPPER + DIGITS, 10) + "/" + of(r, ALNUM, 24)));
        shapes.put("square-access-token", r -> token("t ", "sq0atp-" + of(r, URLSAFE, 22)));
        shapes.put("stripe-access-token", r -> token("STRIPE=", "sk_live_" + of(r, ALNUM, 99)));
        shapes.put("twilio-api-key", r -> token("t ", "SK" + of(r, HEX, 32)));
        shapes.put("basic-auth-url", r -> {
            // A digit in it: gitleaks' allow list skips passwords of letters only, on purpose.
            String password = of(r, ALNUM, 19) + r.nextInt(10);
            return new Sample("DATABASE_URL=postgres://app:" + password + "@db.internal:5432/app", password);
        });
        shapes.put("dotenv-secret", r -> {
            String password = of(r, ALNUM, 18);
            return new Sample("DB_PASSWORD=" + password, password);
        });
    }

    private static Sample token(String before, String secret) {
        // The secret ends its line, as in a .env file: the rules must take the newline as its end.
        return new Sample(before + secret, secret);
    }

    /** A PEM private key block: 25 lines of base64, as an RSA key has more of. */
    static Sample privateKey(Random r) {
        StringBuilder block = new StringBuilder("-----BEGIN RSA PRIVATE KEY-----\n");
        for (int i = 0; i < 25; i++) {
            block.append(of(r, ALNUM + "+/", 64)).append('\n');
        }
        block.append(of(r, ALNUM + "+/", 20)).append("==\n-----END RSA PRIVATE KEY-----");
        return new Sample("key file:\n" + block + "\ndone", block.toString());
    }
}
