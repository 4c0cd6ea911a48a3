package dev.dockhand.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FrontMatterTest {
    private static String failure(String text) {
        return assertThrows(FrontMatterException.class, () -> FrontMatter.parse(text))
                .getMessage();
    }

    @Test
    void theFieldsAreReadAndTheBodyStartsAfterTheClosingLine() throws Exception {
        FrontMatter parsed = FrontMatter.parse(
                """
                ---
                description: Review a file
                argument-hint: FILE [FOCUS]
                allowed-tools: [read_file, grep]
                model: gpt-4.1-mini
                ---
                Review $1.

                Focus on $2.
                """);

        assertEquals(
                Json.MAPPER.readTree(
                        """
                        {"description":"Review a file","argument-hint":"FILE [FOCUS]",
                         "allowed-tools":["read_file","grep"],"model":"gpt-4.1-mini"}
                        """),
                parsed.fields());
        assertEquals("Review $1.\n\nFocus on $2.\n", parsed.body());
    }

    @Test
    void aFileWithoutAnOpeningLineIsAllBody() throws Exception {
        FrontMatter parsed = FrontMatter.parse("Say hello to $ARGUMENTS\n---\nnot: front matter\n");

        assertEquals(new FrontMatter(Json.object(), "Say hello to $ARGUMENTS\n---\nnot: front matter\n"), parsed);
    }

    @Test
    void windowsLineEndingsAndAByteOrderMarkAreReadAsPlainLines() throws Exception {
        FrontMatter parsed = FrontMatter.parse("\uFEFF---\r\ndescription: Greet\r\n---\r\nHello\r\nthere\r\n");

        assertEquals(new FrontMatter(Json.object().put("description", "Greet"), "Hello\nthere\n"), parsed);
    }

    @Test
    void anEmptyFrontMatterHasNoFields() throws Exception {
        assertEquals(new FrontMatter(Json.object(), "Body"), FrontMatter.parse("---\n---\nBody"));
        assertEquals(new FrontMatter(Json.object(), ""), FrontMatter.parse("---\n\n---"));
    }

    @Test
    void textAcceptsAnyScalarAndIsEmptyForAMissingOrBlankKey() throws Exception {
        FrontMatter parsed = FrontMatter.parse("---\ndescription: 42\nmodel:\nhint: '  '\n---\n");

        assertEquals(
                List.of(Optional.of("42"), Optional.empty(), Optional.empty(), Optional.empty()),
                List.of(parsed.text("description"), parsed.text("model"), parsed.text("hint"), parsed.text("absent")));
    }

    @Test
    void aListIsAYamlListOrNamesSeparatedByCommasOutsideParentheses() throws Exception {
        FrontMatter parsed = FrontMatter.parse(
                """
                ---
                one: read_file, grep ,, run_shell_command(git log --format=%h,%s)
                two:
                  - read_file
                  - " glob "
                three: edit
                ---
                """);

        assertEquals(
                List.of(
                        List.of("read_file", "grep", "run_shell_command(git log --format=%h,%s)"),
                        List.of("read_file", "glob"),
                        List.of("edit"),
                        List.of()),
                List.of(parsed.list("one"), parsed.list("two"), parsed.list("three"), parsed.list("four")));
    }

    @Test
    void aValueOfTheWrongShapeNamesItsKey() throws Exception {
        FrontMatter parsed = FrontMatter.parse("---\ndescription: [a, b]\ntools: {read: yes}\nlist: [[a]]\n---\n");

        assertEquals(
                "'description' in its front matter should be one line of text",
                assertThrows(FrontMatterException.class, () -> parsed.text("description"))
                        .getMessage());
        assertEquals(
                "'tools' in its front matter should be a list of names, or names separated by commas",
                assertThrows(FrontMatterException.class, () -> parsed.list("tools"))
                        .getMessage());
        assertEquals(
                "'list' in its front matter should be a list of names",
                assertThrows(FrontMatterException.class, () -> parsed.list("list"))
                        .getMessage());
    }

    @Test
    void badFrontMatterIsOneSentenceSayingWhatIsWrong() {
        assertEquals(
                "its front matter, opened by --- on line 1, is never closed by another --- line",
                failure("---\ndescription: x\nBody\n"));
        assertEquals("its front matter is not a list of 'key: value' lines", failure("---\n- a\n- b\n---\n"));
        assertEquals("its front matter is not a list of 'key: value' lines", failure("---\njust text\n---\n"));
        assertEquals(
                "its front matter is not valid YAML (line 2: while scanning for the next token: found character '\\t(TAB)' that cannot start any token."
                        + " (Do not use \\t(TAB) for indentation))",
                failure("---\n\tmodel: a\n---\n"));
        assertEquals(
                "its front matter is not valid YAML (line 3: Duplicate field 'model' for `ObjectNode`: not allowed"
                        + " when `DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY` enabled)",
                failure("---\nmodel: a\nmodel: b\n---\n"));
    }

    @Test
    void yamlThatDoesNotParseSaysOnWhichLineOfTheFile() {
        String message = failure("---\ndescription: fine\nbad: [unclosed\n---\nBody\n");

        assertEquals(
                "its front matter is not valid YAML (line 3: while parsing a flow sequence: expected ',' or ']', but"
                        + " got <stream end>)",
                message);
    }

    @Test
    void theValueOfAVerbatimKeyIsTakenAsWritten() throws Exception {
        String text = "---\nargument-hint: [FILE] [FOCUS] it's\nquoted: \"[x]\"\nother: [a, b]\nempty:\n---\nBody";

        FrontMatter parsed = FrontMatter.parse(text, Set.of("argument-hint", "quoted", "empty"));

        assertEquals(
                Json.object()
                        .put("argument-hint", "[FILE] [FOCUS] it's")
                        .put("quoted", "[x]")
                        .set("other", Json.MAPPER.createArrayNode().add("a").add("b")),
                parsed.fields().deepCopy().without("empty"));
        assertEquals(Optional.empty(), parsed.text("empty"));
        assertEquals(
                "its front matter is not valid YAML (line 2: while parsing a block mapping: expected <block end>, but"
                        + " found '[')",
                failure("---\nargument-hint: [FILE] [FOCUS]\n---\n"));
    }

    @Test
    void tagsDoNotMakeObjects() throws Exception {
        FrontMatter parsed = FrontMatter.parse("---\ndescription: !!java.io.File /etc/passwd\n---\n");

        assertEquals(Optional.of("/etc/passwd"), parsed.text("description"));
    }
}
