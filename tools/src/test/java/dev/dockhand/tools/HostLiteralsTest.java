package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HostLiteralsTest {
    @Test
    void readsEverySpellingOfAnIpv4AddressTheWayEachParserWould() {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("127.0.0.1", List.of("127.0.0.1"));
        expected.put("127.0.0.1.", List.of("127.0.0.1"));
        expected.put("2130706433", List.of("127.0.0.1"));
        expected.put("127.1", List.of("127.0.0.1"));
        expected.put("10.1.2", List.of("10.1.0.2"));
        expected.put("0x7f.1", List.of("127.0.0.1"));
        expected.put("0X7F000001", List.of("127.0.0.1"));
        expected.put("0x7f.0x0.0x0.0x1", List.of("127.0.0.1"));
        expected.put("017700000001", List.of("127.0.0.1"));
        // inet_aton reads a leading zero as octal, the JDK as decimal: both readings are kept.
        expected.put("0177.0.0.1", List.of("127.0.0.1", "177.0.0.1"));
        expected.put("010.0.0.1", List.of("8.0.0.1", "10.0.0.1"));
        expected.put("0", List.of("0.0.0.0"));
        expected.put("0x", List.of("0.0.0.0"));
        expected.put("1.1.1.256", List.of());
        expected.put("256.0.0.1", List.of());
        expected.put("4294967296", List.of());
        expected.put("99999999999999999999", List.of());
        expected.put("08.0.0.1", List.of("8.0.0.1"));
        expected.put("1.2.3.4.5", List.of());
        expected.put("0x7g.1", List.of());
        expected.put("1e100.net", List.of());
        expected.put("example.com", List.of());
        expected.put("localhost", List.of());
        expected.put("", List.of());

        assertEquals(expected, readings(expected.keySet()));
    }

    @Test
    void readsIpv6LiteralsAsOkhttpGivesThem() {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("::1", List.of("0:0:0:0:0:0:0:1"));
        expected.put("::7f00:1", List.of("0:0:0:0:0:0:7f00:1"));
        expected.put("64:ff9b::a00:1", List.of("64:ff9b:0:0:0:0:a00:1"));
        expected.put("not:an:address", List.of());

        assertEquals(expected, readings(expected.keySet()));
    }

    private static Map<String, List<String>> readings(Iterable<String> hosts) {
        Map<String, List<String>> readings = new LinkedHashMap<>();
        for (String host : hosts) {
            readings.put(
                    host,
                    HostLiterals.addresses(host).stream()
                            .map(InetAddress::getHostAddress)
                            .collect(Collectors.toList()));
        }
        return readings;
    }
}
