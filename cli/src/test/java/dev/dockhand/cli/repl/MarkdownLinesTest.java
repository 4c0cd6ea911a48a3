package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.Rendering;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

public class MarkdownLinesTest {
    private final MarkdownLines styled = new MarkdownLines(true);

    private static AttributedString styledText(Object... parts) {
        AttributedStringBuilder out = new AttributedStringBuilder();
        for (int i = 0; i < parts.length; i += 2) {
            out.style((AttributedStyle) parts[i]).append((String) parts[i + 1]);
        }
        return out.toAttributedString();
    }

    @Test
    void inlineSpansBecomeStyles() {
        assertEquals(
                List.of(styledText(
                        AttributedStyle.DEFAULT,
                        "a ",
                        AttributedStyle.BOLD,
                        "bold",
                        AttributedStyle.DEFAULT,
                        " and ",
                        AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN),
                        "code")),
                styled.render("a **bold** and `code`", 80));
    }

    @Test
    void aLinkShowsItsTextAndItsAddress() {
        assertEquals(
                "see the docs (https://example.com)",
                styled.render("see [the docs](https://example.com)", 80).get(0).toString());
        assertEquals(
                "https://example.com",
                styled.render("<https://example.com>", 80).get(0).toString());
    }

    @Test
    void codeBlockLinesAreSetApartAndNotParsed() {
        assertEquals(List.of("  python"), text(styled.render("```python", 80)));
        assertEquals(List.of("│ x = **not bold**"), text(styled.render("x = **not bold**", 80)));
        assertEquals(List.of(), text(styled.render("```", 80)));
        assertEquals(List.of("after"), text(styled.render("after", 80)));
    }

    @Test
    void listItemsWrapUnderTheirText() {
        assertEquals(List.of("• one two three", "  four five"), text(styled.render("- one two three four five", 16)));
        assertEquals(List.of("  2. nested"), text(styled.render("  2. nested", 80)));
    }

    @Test
    void headingsQuotesAndRules() {
        assertEquals(List.of("Title"), text(styled.render("## Title ##", 80)));
        assertEquals(List.of("│ quoted"), text(styled.render("> quoted", 80)));
        assertEquals(List.of("─".repeat(20)), text(styled.render("---", 20)));
    }

    @Test
    void plainModeKeepsTheMarkdownAsWritten() {
        MarkdownLines plain = new MarkdownLines(false);
        assertEquals(List.of("# Title"), text(plain.render("# Title", 80)));
        assertEquals(List.of("- **bold**"), text(plain.render("- **bold**", 80)));
    }

    @Test
    void escapeSequencesNeverReachTheTerminal() {
        assertEquals(
                "red text, title gone",
                Rendering.printable("\u001B[31mred\u001B[0m text, \u001B]0;evil\u0007title gone"));
        assertEquals("a    b", Rendering.printable("a\tb\r"));
    }

    private static List<String> text(List<AttributedString> lines) {
        return lines.stream().map(AttributedString::toString).toList();
    }
}
