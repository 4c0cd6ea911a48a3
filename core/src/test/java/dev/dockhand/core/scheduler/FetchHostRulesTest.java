package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A web_fetch domain rule reads the host as the fetch does, however the URL is spelled. */
class FetchHostRulesTest {
    private static final PermissionRules RULES = new PermissionRules(List.of(
            PermissionRule.parse(PermissionRule.Decision.DENY, "web_fetch(domain:pastebin.com)", "user"),
            PermissionRule.parse(PermissionRule.Decision.DENY, "web_fetch(domain:*.evil.com)", "user")));

    private static CallFacts fetch(String url) {
        return CallFacts.of(
                new ToolCall("c1", "web_fetch", Json.object().put("url", url).toString()));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://pastebin.com/x",
                "https://pastebin.com\\x",
                "https://pastebin.com:443\\@x",
                "https://PASTEBIN.com./x",
                " https://pastebin.com/x",
                "https://a_b.evil.com/x",
                "https://a_b.evil.com\\x"
            })
    void aDeniedHostIsDeniedHoweverTheUrlIsSpelled(String url) {
        assertEquals(
                Optional.of(PermissionRule.Decision.DENY),
                RULES.decide(fetch(url)).decision());
    }

    @ParameterizedTest
    @ValueSource(strings = {"pastebin.com/x", "ftp://pastebin.com/x", "https://", ""})
    void aUrlWithNoHostTheFetchWouldReadIsAskedAboutWhenADomainRuleExists(String url) {
        PermissionRules.Verdict verdict = RULES.decide(fetch(url));

        assertEquals(
                new PermissionRules.Verdict(
                        Optional.of(PermissionRule.Decision.ASK),
                        RULES.rules().stream().findFirst(),
                        true),
                verdict);
    }
}
