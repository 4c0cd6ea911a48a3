package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllowedHostsTest {
    private final AllowedHosts allowed = AllowedHosts.parse(List.of(
            "localhost", " Wiki.Corp.Example. ", "Bücher.example", "192.168.1.20", "10.0.0.0/8", "fd00::/8", "[::1]"));

    @Test
    void matchesNamesWholeAndWithoutCaseAsOkhttpWritesThem() {
        Map<String, Boolean> expected = new LinkedHashMap<>();
        expected.put("localhost", true);
        expected.put("localhost.", true);
        expected.put("wiki.corp.example", true);
        expected.put("xn--bcher-kva.example", true);
        expected.put("corp.example", false);
        expected.put("evil.wiki.corp.example", false);
        expected.put("localhost.evil.example", false);
        expected.put("127.0.0.1", false);

        Map<String, Boolean> actual = new LinkedHashMap<>();
        expected.keySet().forEach(host -> actual.put(host, allowed.permitsName(host)));
        assertEquals(expected, actual);
    }

    @Test
    void matchesAddressesByBlockIncludingIpv6FormsOfAnAllowedIpv4Address() throws UnknownHostException {
        Map<String, Boolean> expected = new LinkedHashMap<>();
        expected.put("192.168.1.20", true);
        expected.put("192.168.1.21", false);
        expected.put("10.0.0.0", true);
        expected.put("10.255.255.255", true);
        expected.put("11.0.0.0", false);
        expected.put("fd12::1", true);
        expected.put("fc00::1", false);
        expected.put("::1", true);
        expected.put("127.0.0.1", false);
        expected.put("64:ff9b::a01:203", true); // NAT64 10.1.2.3

        Map<String, Boolean> actual = new LinkedHashMap<>();
        for (String literal : expected.keySet()) {
            actual.put(literal, allowed.permitsAddress(InetAddress.getByName(literal)));
        }
        assertEquals(expected, actual);
    }

    @Test
    void refusesEachBadEntryInOneSentence() {
        String notAnEntry = " is not a host name, an IP address or a CIDR block (such as wiki.example.com, 10.0.0.5,"
                + " 10.0.0.0/8 or fd00::/8; no scheme or port).";
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(
                "", "An allowed host is empty; give a host name, an IP address or a CIDR block such as 10.0.0.0/8.");
        expected.put(null, expected.get(""));
        expected.put("10.0.0.0/33", "'10.0.0.0/33' needs a prefix length from 0 to 32 after its '/'.");
        expected.put("fd00::/129", "'fd00::/129' needs a prefix length from 0 to 128 after its '/'.");
        expected.put("10.0.0.0/", "'10.0.0.0/' needs a prefix length from 0 to 32 after its '/'.");
        expected.put("10.1.2.3/8", "'10.1.2.3/8' has bits set past its prefix; write 10.0.0.0/8.");
        expected.put("fd12::/8", "'fd12::/8' has bits set past its prefix; write fd00::/8.");
        expected.put(
                "127.1",
                "'127.1' is not an IPv4 address in full: write four numbers from 0 to 255 without"
                        + " leading zeros, such as 127.0.0.1.");
        expected.put(
                "010.0.0.1",
                "'010.0.0.1' is not an IPv4 address in full: write four numbers from 0 to 255"
                        + " without leading zeros, such as 127.0.0.1.");
        expected.put(
                "0x7f.1",
                "'0x7f.1' is not an IPv4 address in full: write four numbers from 0 to 255 without"
                        + " leading zeros, such as 127.0.0.1.");
        expected.put(
                "300.0.0.1",
                "'300.0.0.1' is not an IPv4 address in full: write four numbers from 0 to 255"
                        + " without leading zeros, such as 127.0.0.1.");
        expected.put("::ffff:10.0.0.1", "'::ffff:10.0.0.1' is an IPv4 address in IPv6 form; write it as 10.0.0.1.");
        expected.put("localhost:8080", "'localhost:8080'" + notAnEntry);
        expected.put("http://wiki.example/", "'http://wiki.example/'" + notAnEntry);
        expected.put("fe80::1%eth0", "'fe80::1%eth0'" + notAnEntry);
        expected.put("*.example.com", "'*.example.com'" + notAnEntry);
        expected.put("a..b", "'a..b'" + notAnEntry);
        expected.put("wiki example", "'wiki example'" + notAnEntry);

        Map<String, String> actual = new LinkedHashMap<>();
        for (String entry : expected.keySet()) {
            List<String> entries = new ArrayList<>(Arrays.asList("localhost", entry));
            actual.put(entry, refusal(entries));
        }
        assertEquals(expected, actual);
    }

    private static String refusal(List<String> entries) {
        try {
            AllowedHosts.parse(entries);
            return "accepted";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Test
    void builtinToolsRefuseABadEntryWhenTheListIsBuilt() {
        assertEquals(
                "'10.0.0.0/33' needs a prefix length from 0 to 32 after its '/'.",
                assertThrows(IllegalArgumentException.class, () -> BuiltinTools.all(List.of("10.0.0.0/33")))
                        .getMessage());
    }
}
