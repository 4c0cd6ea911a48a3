package dev.dockhand.core.redaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LineRedactorTest {
    private final Random random = new Random(20261125L);
    private final Redactor redactor = Redactor.of(SecretRules.builtIn(), new SecretValues(), Set.of(), problem -> {});

    @Test
    void aSecretSplitBetweenTwoPiecesOfALongLineIsFound() {
        String token = "ghp_" + SecretShapes.of(random, SecretShapes.ALNUM, 36);
        String filler = "x".repeat(LineRedactor.LONG_LINE * 2);
        // The sandbox passes a line this long on in pieces; here the cut falls inside the token.
        String whole = filler + " " + token + " " + filler;
        int cut = filler.length() + 1 + 17;
        List<String> shown = new ArrayList<>();
        LineRedactor lines = redactor.lines(shown::add);
        lines.line(whole.substring(0, cut));
        lines.line(whole.substring(cut));
        lines.line("next line");
        lines.finish();
        assertEquals(filler + " [REDACTED:github-pat:1] " + filler + "next line", String.join("", shown));
    }

    @Test
    void aPrivateKeyStreamedLineByLineIsHeldUntilItsEndAndRedactedWhole() {
        SecretShapes.Sample key = SecretShapes.privateKey(random);
        List<String> shown = new ArrayList<>();
        LineRedactor lines = redactor.lines(shown::add);
        key.line().lines().forEach(lines::line);
        lines.finish();
        assertEquals(List.of("key file:", "[REDACTED:private-key:1]", "done"), shown);
    }

    @Test
    void endlessOutputHoldsBackNoMoreThanTheCarry() {
        List<String> shown = new ArrayList<>();
        LineRedactor lines = redactor.lines(shown::add);
        String piece = SecretShapes.of(random, SecretShapes.LOWER + " ", 64 * 1024);
        long in = 0;
        for (int i = 0; i < 64; i++) {
            lines.line(piece);
            in += piece.length();
            assertEquals(LineRedactor.CARRY, lines.heldBack());
        }
        lines.finish();
        assertEquals(in, shown.stream().mapToLong(String::length).sum());
    }

    @Test
    void aLongLineHeldBackInPartIsCutBetweenWholeCharacters() {
        // The last CARRY chars are held back; U+1F600 straddles where they begin.
        String before = "x".repeat(LineRedactor.LONG_LINE - LineRedactor.CARRY - 1);
        String held = "\uD83D\uDE00" + "y".repeat(LineRedactor.CARRY - 1);
        List<String> shown = new ArrayList<>();
        LineRedactor lines = redactor.lines(shown::add);
        lines.line(before + held);
        lines.finish();
        assertEquals(List.of(before, held), shown);
    }
}
