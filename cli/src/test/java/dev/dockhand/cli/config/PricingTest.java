package dev.dockhand.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.settings.Settings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

public class PricingTest {
    private final Pricing table = Pricing.builtIn();

    @Test
    void aModelIsFoundByItsNameOrItsNameWithADateOrVersionTag() {
        Pricing.Price sonnet = new Pricing.Price(3.00, 0.30, 3.75, 15.00);
        assertEquals(Optional.of(sonnet), table.find("claude-sonnet-4-5"));
        assertEquals(Optional.of(sonnet), table.find("claude-sonnet-4-5-20250929"));
        assertEquals(Optional.of(sonnet), table.find("Claude-Sonnet-4-5"));
        assertEquals(table.find("claude-opus-4"), table.find("claude-opus-4-20250514"));
        assertEquals(table.find("gpt-4.1"), table.find("gpt-4.1-2025-04-14"));
        assertEquals(table.find("gpt-4o-mini"), table.find("gpt-4o-mini-2024-07-18"));
        assertEquals(table.find("gemini-2.5-flash-lite"), table.find("gemini-2.5-flash-lite-preview-09-2025"));
        assertEquals(table.find("grok-4"), table.find("grok-4-0709"));
        assertEquals(Optional.of(new Pricing.Price(5.00, 0.50, 6.25, 25.00)), table.find("claude-opus-4-5-20251101"));
    }

    @Test
    void aSnapshotPricedApartKeepsItsOwnPrice() {
        // gpt-4o's first snapshot costs twice the later ones; the date tag must not hand it their price.
        assertEquals(
                List.of(
                        Optional.of(new Pricing.Price(5.00, 5.00, 5.00, 15.00)),
                        Optional.of(new Pricing.Price(2.50, 1.25, 2.50, 10.00))),
                List.of(table.find("gpt-4o-2024-05-13"), table.find("gpt-4o-2024-08-06")));
    }

    @Test
    void anotherModelSharingAPrefixHasNoPriceRatherThanAGuessedOne() {
        assertEquals(Optional.empty(), table.find("gpt-5-pro"));
        assertEquals(Optional.empty(), table.find("o3-pro"));
        assertEquals(Optional.empty(), table.find("claude-opus-4-9"));
        assertEquals(Optional.empty(), table.find("gemini-2.5-flash-image"));
        assertEquals(Optional.empty(), table.find("qwen3-coder:30b"));
    }

    @Test
    void costIsEachKindOfTokenAtItsOwnPrice() {
        // 1,000 uncached input, 6,000 read from the cache, 3,000 written to it, 2,000 out of which 500 reasoning.
        TokenUsage usage = new TokenUsage(10_000, 2_000, 6_000, 3_000, 500);

        double cost = new Pricing.Price(3.00, 0.30, 3.75, 15.00).cost(usage);

        assertEquals((1_000 * 3.00 + 6_000 * 0.30 + 3_000 * 3.75 + 2_000 * 15.00) / 1_000_000, cost, 1e-12);
    }

    @Test
    void settingsPricesGoOverTheTableAndMissingCachePricesAreTheInputPrice() {
        Pricing pricing = Pricing.with(Map.of(
                "gpt-4.1", new Settings.Price(1.0, 0.1, null, 4.0),
                "My-Local-Model", new Settings.Price(0.5, null, null, 1.0)));

        assertEquals(Optional.of(new Pricing.Price(1.0, 0.1, 1.0, 4.0)), pricing.find("gpt-4.1-2025-04-14"));
        assertEquals(Optional.of(new Pricing.Price(0.5, 0.5, 0.5, 1.0)), pricing.find("my-local-model"));
        assertEquals(table.find("gpt-4o"), pricing.find("gpt-4o"));
    }

    @Test
    void aModelIsNoDearerThanAnotherOnlyWhenBothArePricedAndNoKindOfTokenCostsMore() {
        Pricing pricing = Pricing.with(Map.of(
                "cheap-but-dear-cache", new Settings.Price(0.10, 0.01, 9.0, 0.40),
                "mine", new Settings.Price(0.40, 0.10, 0.40, 1.60)));

        assertEquals(
                List.of(true, true, false, false, false, true, false, true),
                List.of(
                        pricing.noDearer("gpt-4.1-nano", "gpt-4.1-mini"),
                        pricing.noDearer("gpt-4.1-mini-2025-04-14", "GPT-4.1"),
                        pricing.noDearer("gpt-5", "gpt-4.1"),
                        pricing.noDearer("cheap-but-dear-cache", "mine"),
                        pricing.noDearer("o1-pro", "gpt-4.1"),
                        pricing.noDearer("gpt-4.1-nano", "mine"),
                        pricing.noDearer("gpt-4.1-nano", "someone-elses"),
                        pricing.noDearer("someone-elses", " someone-elses ")));
    }

    @Test
    void aSettingsPriceWithoutOutputOrBelowZeroIsRefused() {
        assertEquals(
                "must give input and output for 'm'.",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Pricing.with(Map.of("m", new Settings.Price(1.0, null, null, null))))
                        .getMessage());
        assertEquals(
                "has a negative price for 'm'.",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Pricing.with(Map.of("m", new Settings.Price(1.0, -0.1, null, 2.0))))
                        .getMessage());
    }

    @Test
    void theTableAndTheCodeGiveTheSameCheckDate() throws Exception {
        try (var in = Pricing.class.getResourceAsStream("prices.json")) {
            assertEquals(
                    Pricing.CHECKED,
                    dev.dockhand.core.Json.MAPPER.readTree(in).get("checked").asText());
        }
    }

    @Test
    void amountsBelowACentKeepFourDecimals() {
        assertEquals("$0.0042", Pricing.dollars(0.0042));
        assertEquals("$0.00", Pricing.dollars(0));
        assertEquals("$1.24", Pricing.dollars(1.2351));
    }
}
