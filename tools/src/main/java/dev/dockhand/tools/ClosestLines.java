package dev.dockhand.tools;

import dev.dockhand.core.EditDistance;
import java.util.List;

/**
 * When an edit's old text is not found, shows the model the part of the file most like it, with line numbers, so
 * the retry can copy the real text (usually the difference is indentation or a line that changed since it read).
 */
final class ClosestLines {
    private static final int CONTEXT = 2;
    /** Longer lines are not compared: edit distance is quadratic, and such lines are rarely what was meant. */
    private static final int MAX_COMPARED_CHARS = 400;

    private ClosestLines() {}

    static String describe(String fileText, String oldText) {
        List<String> file = fileText.lines().toList();
        List<String> wanted = oldText.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
        if (file.isEmpty() || wanted.isEmpty()) {
            return "";
        }
        int best = -1;
        double bestScore = 0;
        for (int i = 0; i < file.size(); i++) {
            if (file.get(i).length() > MAX_COMPARED_CHARS) {
                continue;
            }
            double score = similarity(file.get(i).strip(), wanted.get(0));
            if (score > bestScore) {
                bestScore = score;
                best = i;
            }
        }
        if (best < 0 || bestScore < 0.5) {
            return " No line resembles its first line; read the file again.";
        }
        boolean onlyWhitespace =
                String.join("\n", file).replaceAll("\\s+", "").contains(oldText.replaceAll("\\s+", ""));
        int from = Math.max(0, best - CONTEXT);
        int to = Math.min(file.size(), best + wanted.size() + CONTEXT);
        StringBuilder text = new StringBuilder(
                onlyWhitespace
                        ? " It matches if whitespace is ignored: check indentation and line breaks. The closest lines are:\n"
                        : " The closest lines are:\n");
        for (int i = from; i < to; i++) {
            TextFiles.lineNumber(text, i + 1).append(file.get(i)).append('\n');
        }
        return text.toString();
    }

    /** 1.0 for equal strings, falling with the edit distance relative to the longer one. */
    static double similarity(String a, String b) {
        if (a.equals(b)) {
            return 1.0;
        }
        int longer = Math.max(a.length(), b.length());
        if (longer == 0 || Math.abs(a.length() - b.length()) > longer / 2) {
            return 0;
        }
        return 1.0 - (double) EditDistance.between(a, b) / longer;
    }
}
