package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InternalAddressesTest {
    private static Map<String, String> kinds(List<InetAddress> addresses) {
        Map<String, String> kinds = new LinkedHashMap<>();
        for (InetAddress address : addresses) {
            kinds.put(address.getHostAddress(), InternalAddresses.kind(address).orElse("public"));
        }
        return kinds;
    }

    private static List<InetAddress> literals(String... literals) throws UnknownHostException {
        List<InetAddress> addresses = new ArrayList<>();
        for (String literal : literals) {
            addresses.add(InetAddress.getByName(literal));
        }
        return addresses;
    }

    @Test
    void namesEachInternalIpv4RangeAtBothEnds() throws UnknownHostException {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("0.0.0.0", "an unspecified address");
        expected.put("0.255.255.255", "an unspecified address");
        expected.put("10.0.0.0", "a private address");
        expected.put("10.255.255.255", "a private address");
        expected.put("100.64.0.0", "a carrier-grade NAT address");
        expected.put("100.127.255.255", "a carrier-grade NAT address");
        expected.put("127.0.0.1", "a loopback address");
        expected.put("127.255.255.255", "a loopback address");
        expected.put("169.254.0.0", "a link-local address");
        expected.put("169.254.169.254", "a link-local address");
        expected.put("172.16.0.0", "a private address");
        expected.put("172.31.255.255", "a private address");
        expected.put("192.0.0.8", "a special-purpose address");
        expected.put("192.168.0.0", "a private address");
        expected.put("192.168.255.255", "a private address");
        expected.put("224.0.0.1", "a multicast address");
        expected.put("239.255.255.250", "a multicast address");
        expected.put("240.0.0.1", "a reserved or broadcast address");
        expected.put("255.255.255.255", "a reserved or broadcast address");

        assertEquals(expected, kinds(literals(expected.keySet().toArray(String[]::new))));
    }

    @Test
    void leavesPublicIpv4AddressesJustOutsideThoseRangesOpen() throws UnknownHostException {
        List<InetAddress> outside = literals(
                "1.0.0.0",
                "9.255.255.255",
                "11.0.0.0",
                "100.63.255.255",
                "100.128.0.0",
                "126.255.255.255",
                "128.0.0.0",
                "169.253.255.255",
                "169.255.0.0",
                "172.15.255.255",
                "172.32.0.0",
                "192.0.1.0",
                "192.167.255.255",
                "192.169.0.0",
                "198.18.0.1",
                "223.255.255.255");

        Map<String, String> expected = new LinkedHashMap<>();
        outside.forEach(address -> expected.put(address.getHostAddress(), "public"));
        assertEquals(expected, kinds(outside));
    }

    @Test
    void namesEachInternalIpv6Range() throws UnknownHostException {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("0:0:0:0:0:0:0:0", "an unspecified address");
        expected.put("0:0:0:0:0:0:0:1", "a loopback address");
        expected.put("64:ff9b:1:0:0:0:0:1", "a local NAT64 address");
        expected.put("fc00:0:0:0:0:0:0:0", "a private address");
        expected.put("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "a private address");
        expected.put("fe80:0:0:0:0:0:0:1", "a link-local address");
        expected.put("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "a link-local address");
        expected.put("fec0:0:0:0:0:0:0:1", "a site-local address");
        expected.put("ff02:0:0:0:0:0:0:1", "a multicast address");
        expected.put("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public");
        expected.put("2606:4700:4700:0:0:0:0:1111", "public");

        assertEquals(expected, kinds(literals(expected.keySet().toArray(String[]::new))));
    }

    @Test
    void seesTheIpv4AddressInsideIpv6Forms() throws UnknownHostException {
        byte[] mapped = InetAddress.getByName("::7f00:1").getAddress();
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        List<InetAddress> forms = literals(
                "::7f00:1", // IPv4-compatible 127.0.0.1
                "64:ff9b::a00:1", // NAT64 10.0.0.1
                "2002:a9fe:a9fe::1", // 6to4 169.254.169.254
                "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1 inverted
                "64:ff9b::808:808", // NAT64 8.8.8.8
                "2002:808:808::1"); // 6to4 8.8.8.8
        // The JDK turns a mapped literal into an IPv4 address; a resolver can still hand one over undecoded.
        forms.add(0, Inet6Address.getByAddress(null, mapped, -1));

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("0:0:0:0:0:ffff:7f00:1", "an IPv6 form of 127.0.0.1, a loopback address");
        expected.put("0:0:0:0:0:0:7f00:1", "an IPv6 form of 127.0.0.1, a loopback address");
        expected.put("64:ff9b:0:0:0:0:a00:1", "an IPv6 form of 10.0.0.1, a private address");
        expected.put("2002:a9fe:a9fe:0:0:0:0:1", "an IPv6 form of 169.254.169.254, a link-local address");
        expected.put("2001:0:4136:e378:8000:63bf:80ff:fffe", "an IPv6 form of 127.0.0.1, a loopback address");
        expected.put("64:ff9b:0:0:0:0:808:808", "public");
        expected.put("2002:808:808:0:0:0:0:1", "public");
        assertEquals(expected, kinds(forms));
    }

    @Test
    void writesAddressesAsUrlsDo() throws UnknownHostException {
        assertEquals(
                List.of("::1", "64:ff9b::a00:1", "127.0.0.1"),
                List.of(
                        InternalAddresses.text(InetAddress.getByName("0:0:0:0:0:0:0:1")),
                        InternalAddresses.text(InetAddress.getByName("64:ff9b::a00:1")),
                        InternalAddresses.text(InetAddress.getByName("127.0.0.1"))));
    }
}
