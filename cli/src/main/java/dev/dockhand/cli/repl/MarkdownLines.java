package dev.dockhand.cli.repl;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Renders Markdown one finished line at a time, so an answer can be shown while it streams and no finished line is
 * ever redrawn. The block structure (code fences, headings, lists, quotes, rules) is read line by line, which is all
 * a stream allows; the inline spans of each line (emphasis, code, links) are parsed by commonmark. Lines come out
 * word-wrapped to the width, continuation lines indented under their block.
 */
public final class MarkdownLines {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+#.-]*).*$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern ITEM = Pattern.compile("^(\\s*)([-*+]|\\d{1,9}[.)])\\s+(.*)$");
    private static final Pattern QUOTE = Pattern.compile("^\\s{0,3}>\\s?(.*)$");
    private static final Pattern RULE = Pattern.compile("^\\s{0,3}([-*_])(\\s*\\1){2,}\\s*$");

    private static final AttributedStyle CODE = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    private static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();

    private final Parser parser = Parser.builder().build();
    private final boolean styled;
    private String fence;

    /** With {@code styled} false the Markdown is kept as written: plain text for NO_COLOR and dumb terminals. */
    MarkdownLines(boolean styled) {
        this.styled = styled;
    }

    /** Whether a code block is open, so the next lines are code. */
    boolean inCodeBlock() {
        return fence != null;
    }

    /** The screen lines for one finished source line (none for a fence line). */
    List<AttributedString> render(String line, int width) {
        Matcher fenceMatch = FENCE.matcher(line);
        if (fenceMatch.matches() && (fence == null || line.strip().startsWith(fence))) {
            boolean opening = fence == null;
            fence = opening ? fenceMatch.group(1) : null;
            if (!styled) {
                return List.of(new AttributedString(line));
            }
            String language = fenceMatch.group(2);
            return opening && !language.isEmpty() ? List.of(new AttributedString("  " + language, DIM)) : List.of();
        }
        if (fence != null) {
            return styled ? codeLine(line, width) : Wrap.words(new AttributedString(line), width, "");
        }
        if (!styled) {
            return Wrap.words(new AttributedString(line), width, "");
        }
        return block(line, width);
    }

    private List<AttributedString> block(String line, int width) {
        if (line.isBlank()) {
            return List.of(AttributedString.EMPTY);
        }
        if (RULE.matcher(line).matches()) {
            return List.of(new AttributedString("─".repeat(Math.max(1, Math.min(width, 60))), DIM));
        }
        Matcher heading = HEADING.matcher(line);
        if (heading.matches()) {
            AttributedStyle style = AttributedStyle.BOLD;
            if (heading.group(1).length() == 1) {
                style = style.underline();
            }
            return Wrap.words(inline(heading.group(2), style), width, "");
        }
        Matcher quote = QUOTE.matcher(line);
        if (quote.matches()) {
            AttributedStringBuilder text =
                    new AttributedStringBuilder().style(DIM).append("│ ");
            text.append(inline(quote.group(1), AttributedStyle.DEFAULT.italic()));
            return Wrap.words(text.toAttributedString(), width, "│ ");
        }
        Matcher item = ITEM.matcher(line);
        if (item.matches()) {
            String marker = item.group(2);
            String bullet = Character.isDigit(marker.charAt(0)) ? marker : "•";
            String indent = item.group(1) + " ".repeat(bullet.length() + 1);
            AttributedStringBuilder text = new AttributedStringBuilder().append(item.group(1) + bullet + " ");
            text.append(inline(item.group(3), AttributedStyle.DEFAULT));
            return Wrap.words(text.toAttributedString(), width, indent);
        }
        return Wrap.words(inline(line, AttributedStyle.DEFAULT), width, "");
    }

    private List<AttributedString> codeLine(String line, int width) {
        AttributedStringBuilder text = new AttributedStringBuilder().style(DIM).append("│ ");
        text.style(CODE).append(line.replace("\t", "    "));
        return Wrap.columns(text.toAttributedString(), width, new AttributedString("│ ", DIM));
    }

    /** The inline spans of {@code text}, over {@code base}. */
    AttributedString inline(String text, AttributedStyle base) {
        AttributedStringBuilder out = new AttributedStringBuilder();
        Node document = parser.parse(text);
        append(document, base, out);
        return out.toAttributedString();
    }

    private void append(Node node, AttributedStyle style, AttributedStringBuilder out) {
        for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
            if (child instanceof Text text) {
                out.style(style).append(text.getLiteral());
            } else if (child instanceof Code code) {
                out.style(CODE).append(code.getLiteral());
            } else if (child instanceof StrongEmphasis) {
                append(child, style.bold(), out);
            } else if (child instanceof Emphasis) {
                append(child, style.italic(), out);
            } else if (child instanceof Link link) {
                appendLink(link, link.getDestination(), style, out);
            } else if (child instanceof Image image) {
                appendLink(image, image.getDestination(), style, out);
            } else if (child instanceof SoftLineBreak || child instanceof HardLineBreak) {
                out.style(style).append(" ");
            } else if (child instanceof HtmlInline html) {
                out.style(style).append(html.getLiteral());
            } else if (child instanceof FencedCodeBlock code) {
                out.style(CODE).append(code.getLiteral().strip());
            } else if (child instanceof IndentedCodeBlock code) {
                out.style(CODE).append(code.getLiteral().strip());
            } else {
                append(child, style, out);
            }
        }
    }

    /** A link as its text and, when they differ, its address after it. */
    private void appendLink(Node link, String destination, AttributedStyle style, AttributedStringBuilder out) {
        int start = out.length();
        append(link, style.underline(), out);
        String label = out.toAttributedString().subSequence(start, out.length()).toString();
        if (!label.equals(destination)) {
            out.style(DIM).append(" (" + destination + ")");
        }
    }

    /** Word wrapping of styled text. */
    static final class Wrap {
        private Wrap() {}

        /** Breaks at spaces so each line fits {@code width}; continuation lines start with {@code indent}. */
        static List<AttributedString> words(AttributedString text, int width, String indent) {
            List<AttributedString> lines = new ArrayList<>();
            AttributedString rest = text;
            AttributedString prefix = AttributedString.EMPTY;
            while (true) {
                int room = Math.max(10, width - prefix.length());
                if (rest.length() <= room) {
                    lines.add(AttributedString.join(AttributedString.EMPTY, prefix, rest));
                    return lines;
                }
                int cut = rest.toString().lastIndexOf(' ', room);
                int next = cut;
                if (cut <= 0) {
                    cut = room;
                    next = room;
                } else {
                    next = cut + 1;
                }
                lines.add(AttributedString.join(AttributedString.EMPTY, prefix, rest.subSequence(0, cut)));
                rest = rest.subSequence(next, rest.length());
                prefix = new AttributedString(indent);
            }
        }

        /** Breaks anywhere, for code, whose spaces matter; continuation lines start with {@code prefix}. */
        static List<AttributedString> columns(AttributedString text, int width, AttributedString prefix) {
            List<AttributedString> lines = new ArrayList<>();
            AttributedString rest = text;
            boolean first = true;
            while (true) {
                AttributedString lead = first ? AttributedString.EMPTY : prefix;
                int room = Math.max(10, width - lead.length());
                if (rest.length() <= room) {
                    lines.add(AttributedString.join(AttributedString.EMPTY, lead, rest));
                    return lines;
                }
                lines.add(AttributedString.join(AttributedString.EMPTY, lead, rest.subSequence(0, room)));
                rest = rest.subSequence(room, rest.length());
                first = false;
            }
        }
    }
}
