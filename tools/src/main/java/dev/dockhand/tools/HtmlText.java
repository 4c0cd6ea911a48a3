package dev.dockhand.tools;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Turns a web page into readable text for the model: headings, paragraphs, list items and code blocks on lines of
 * their own, links as "text (url)", and no scripts, styles or navigation chrome.
 */
final class HtmlText {
    private HtmlText() {}

    static String convert(String html, String baseUrl) {
        Document document = Jsoup.parse(html, baseUrl);
        document.select("script, style, noscript, template, svg, nav, footer, iframe, form")
                .remove();
        Element body = document.body();
        StringBuilder text = new StringBuilder();
        String title = document.title();
        if (!title.isBlank()) {
            text.append("# ").append(title.strip()).append("\n\n");
        }
        NodeTraversor.traverse(new Writer(text), body);
        return tidy(text).strip();
    }

    /**
     * {@code text} without blanks at the ends of its lines and with no more than one empty line in a row, in one pass.
     * Not with {@code replaceAll("[ \\t]+\\n", …)}: on a run of blanks that no newline ends (a {@code <pre>} of
     * 5 MB of spaces), the regex tries again from every blank and reads the rest of the run each time, which would
     * take a day.
     */
    static String tidy(CharSequence text) {
        StringBuilder tidy = new StringBuilder(text.length());
        int blanks = 0;
        int newlines = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                blanks++;
                continue;
            }
            if (c == '\n') {
                // The blanks before it end a line: dropped.
                blanks = 0;
                if (++newlines <= 2) {
                    tidy.append('\n');
                }
                continue;
            }
            tidy.append(text, i - blanks, i).append(c);
            blanks = 0;
            newlines = 0;
        }
        return tidy.append(text, text.length() - blanks, text.length()).toString();
    }

    private static final class Writer implements NodeVisitor {
        private final StringBuilder text;
        private int preDepth;

        Writer(StringBuilder text) {
            this.text = text;
        }

        @Override
        public void head(Node node, int depth) {
            if (node instanceof TextNode textNode) {
                text.append(preDepth > 0 ? textNode.getWholeText() : textNode.text());
                return;
            }
            if (!(node instanceof Element element)) {
                return;
            }
            switch (element.normalName()) {
                case "h1", "h2", "h3", "h4", "h5", "h6" -> text.append("\n\n")
                        .append("#".repeat(element.normalName().charAt(1) - '0'))
                        .append(' ');
                case "p", "div", "section", "article", "table", "blockquote" -> text.append("\n\n");
                case "br", "tr" -> text.append('\n');
                case "li" -> text.append("\n- ");
                case "td", "th" -> text.append(" | ");
                case "pre" -> {
                    preDepth++;
                    text.append("\n\n```\n");
                }
                default -> {
                    // Inline elements add no breaks.
                }
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (!(node instanceof Element element)) {
                return;
            }
            switch (element.normalName()) {
                case "a" -> {
                    String href = element.absUrl("href");
                    if (!href.isEmpty()
                            && !href.startsWith("javascript:")
                            && !element.text().equals(href)
                            && !element.text().isBlank()) {
                        text.append(" (").append(href).append(')');
                    }
                }
                case "pre" -> {
                    preDepth--;
                    text.append("\n```\n\n");
                }
                case "p", "div", "section", "article", "h1", "h2", "h3", "h4", "h5", "h6" -> text.append("\n");
                default -> {
                    // Nothing to close.
                }
            }
        }
    }
}
