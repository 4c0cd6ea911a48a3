package dev.dockhand.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a custom command's body makes of the words typed after its name: {@code $ARGUMENTS} is all of them as typed,
 * {@code $1} … {@code $9} one each, split at spaces, with a quoted part kept together ({@code /review "src/My File.java"
 * security} gives {@code $1} = {@code src/My File.java}). A placeholder with no word for it becomes empty. Each
 * placeholder is replaced once, in one pass, so an argument that itself holds {@code $2} stays as typed.
 */
final class CommandArguments {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$(ARGUMENTS|[1-9])");

    private CommandArguments() {}

    /**
     * The words of {@code typed}: spaces separate them, a part in double or single quotes is one word (the quotes
     * removed), and a quote never closed runs to the end. There are no backslash escapes: Windows paths stay whole.
     */
    static List<String> split(String typed) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : typed.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return List.copyOf(words);
    }

    /**
     * The body with its placeholders filled from {@code typed}. A body with no placeholder still gets the arguments,
     * after a blank line as {@code ARGUMENTS: …}, so that nothing the user typed is lost.
     */
    static String fill(String body, String typed) {
        String arguments = typed.strip();
        Matcher matcher = PLACEHOLDER.matcher(body);
        if (!matcher.find()) {
            return arguments.isEmpty() ? body : body.stripTrailing() + "\n\nARGUMENTS: " + arguments;
        }
        List<String> words = split(arguments);
        StringBuilder filled = new StringBuilder();
        do {
            String name = matcher.group(1);
            String value;
            if (name.equals("ARGUMENTS")) {
                value = arguments;
            } else {
                int index = Integer.parseInt(name) - 1;
                value = index < words.size() ? words.get(index) : "";
            }
            matcher.appendReplacement(filled, Matcher.quoteReplacement(value));
        } while (matcher.find());
        matcher.appendTail(filled);
        return filled.toString();
    }
}
