package dev.dockhand.core.redaction;

/** Shannon entropy in bits per character, as gitleaks measures a secret against a rule's threshold. */
final class Entropy {
    private Entropy() {}

    static double shannon(CharSequence text) {
        if (text.length() == 0) {
            return 0;
        }
        java.util.Map<Character, Integer> counts = new java.util.HashMap<>();
        for (int i = 0; i < text.length(); i++) {
            counts.merge(text.charAt(i), 1, Integer::sum);
        }
        double entropy = 0;
        double length = text.length();
        for (int count : counts.values()) {
            double p = count / length;
            entropy -= p * (Math.log(p) / Math.log(2));
        }
        return entropy;
    }
}
