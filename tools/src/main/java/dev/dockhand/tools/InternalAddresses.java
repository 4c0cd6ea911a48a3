package dev.dockhand.tools;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * The addresses that lie inside the user's machine or network, which web_fetch does not reach unless the user allows
 * them: loopback, private, link-local (cloud metadata services live at 169.254.169.254), unspecified, carrier-grade
 * NAT, multicast and reserved ranges, and the IPv6 forms that carry one of those IPv4 addresses.
 */
final class InternalAddresses {
    private InternalAddresses() {}

    /** A range and the words a refusal uses for it. */
    private record Range(AddressBlock block, String kind) {
        Range(String cidr, String kind) {
            this(AddressBlock.parse(cidr), kind);
        }
    }

    private static final List<Range> RANGES = List.of(
            new Range("0.0.0.0/8", "an unspecified address"),
            new Range("10.0.0.0/8", "a private address"),
            // Shared address space: carrier-grade NAT, Tailscale nodes, and Alibaba Cloud's metadata service.
            new Range("100.64.0.0/10", "a carrier-grade NAT address"),
            new Range("127.0.0.0/8", "a loopback address"),
            new Range("169.254.0.0/16", "a link-local address"),
            new Range("172.16.0.0/12", "a private address"),
            new Range("192.0.0.0/24", "a special-purpose address"),
            new Range("192.168.0.0/16", "a private address"),
            // 198.18.0.0/15 (benchmarking) is left open on purpose: proxies in fake-IP mode answer every name with
            // an address there, and refusing it would break web_fetch for their users.
            new Range("224.0.0.0/4", "a multicast address"),
            new Range("240.0.0.0/4", "a reserved or broadcast address"),
            new Range("::/128", "an unspecified address"),
            new Range("::1/128", "a loopback address"),
            new Range("64:ff9b:1::/48", "a local NAT64 address"),
            new Range("fc00::/7", "a private address"),
            new Range("fe80::/10", "a link-local address"),
            new Range("fec0::/10", "a site-local address"),
            new Range("ff00::/8", "a multicast address"));

    /**
     * An IPv6 block whose addresses lead to the IPv4 address in bytes {@code offset} to {@code offset + 3}, stored
     * exclusive-or {@code flip}.
     */
    private record Embedding(AddressBlock block, int offset, int flip) {
        Embedding(String cidr, int offset) {
            this(AddressBlock.parse(cidr), offset, 0);
        }
    }

    /** ::ffff:0:0, which no literal can spell: the JDK reads it as the IPv4 address 0.0.0.0. */
    private static final byte[] IPV4_MAPPED = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0};

    private static final List<Embedding> EMBEDDINGS = List.of(
            new Embedding(AddressBlock.of(IPV4_MAPPED, 96), 12, 0), // as a resolver may hand it over undecoded
            new Embedding("::/96", 12), // IPv4-compatible, deprecated but still routed by some stacks
            new Embedding("64:ff9b::/96", 12), // NAT64: the translator connects to the embedded address
            new Embedding("2002::/16", 2), // 6to4: the tunnel's far end is the embedded address
            new Embedding(AddressBlock.parse("2001::/32"), 12, 0xff)); // Teredo: the client, its bits inverted

    /** What kind of internal address {@code address} is, as a phrase ("a loopback address"); empty when public. */
    static Optional<String> kind(InetAddress address) {
        for (Range range : RANGES) {
            if (range.block().contains(address)) {
                return Optional.of(range.kind());
            }
        }
        return embeddedIpv4(address)
                .flatMap(ipv4 -> kind(ipv4).map(kind -> "an IPv6 form of " + text(ipv4) + ", " + kind));
    }

    /** The IPv4 address an IPv6 address carries and leads to, if it is of a form that does. */
    static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] bytes = address.getAddress();
        for (Embedding embedding : EMBEDDINGS) {
            if (embedding.block().contains(address)) {
                byte[] ipv4 = Arrays.copyOfRange(bytes, embedding.offset(), embedding.offset() + 4);
                for (int i = 0; i < ipv4.length; i++) {
                    ipv4[i] ^= (byte) embedding.flip();
                }
                return Optional.of(AddressBlock.addressOf(ipv4));
            }
        }
        return Optional.empty();
    }

    /** An address as a URL shows it: IPv6 compressed ({@code ::1}, not {@code 0:0:0:0:0:0:0:1}), no scope. */
    static String text(InetAddress address) {
        // okhttp's canonical host is the form the model sees in URLs, so a refusal names the address the same way.
        return new HttpUrl.Builder()
                .scheme("http")
                .host(AddressBlock.addressOf(address.getAddress()).getHostAddress())
                .build()
                .host();
    }
}
