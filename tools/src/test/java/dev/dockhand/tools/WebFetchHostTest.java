package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.scheduler.CallFacts;
import java.util.List;
import java.util.Optional;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * The host web_fetch's domain rules are matched on is the host the fetch reaches: for every URL the tool takes, the
 * rules' host and the fetch's are one; a URL the tool refuses has no host for the rules either.
 */
class WebFetchHostTest {
    private static final List<String> URLS = List.of(
            "https://pastebin.com/x",
            "https://pastebin.com\\x",
            "https://pastebin.com:443\\@x",
            "https://user@pastebin.com/x",
            "https://a_b.evil.com/x",
            "https://PasteBin.COM./x",
            " https://pastebin.com/x ",
            "https://[::1]/x",
            "https://bücher.example/x",
            "http://0x7f.1/",
            "pastebin.com/x",
            "ftp://pastebin.com/x",
            "https://",
            "https://exa mple.com/");

    private final WebFetchTool tool = new WebFetchTool(List.of());

    /** The host the tool fetches, as the rules write hosts: without a final dot. */
    private Optional<String> fetched(String url) {
        return tool.validate(new WebFetchTool.Params(url, null)).isPresent()
                ? Optional.empty()
                : Optional.of(HttpUrl.get(url).host().replaceAll("\\.$", ""));
    }

    @Test
    void theRulesReadTheHostTheFetchReaches() {
        assertEquals(
                URLS.stream().map(url -> url + " -> " + fetched(url)).toList(),
                URLS.stream().map(url -> url + " -> " + CallFacts.host(url)).toList());
    }
}
