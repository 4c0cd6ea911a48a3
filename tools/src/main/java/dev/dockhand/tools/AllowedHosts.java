package dev.dockhand.tools;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;

/**
 * The internal hosts the user lets web_fetch reach: host names, matched whole and without case ({@code localhost},
 * {@code wiki.corp.example}), and IP addresses or CIDR blocks ({@code 127.0.0.1}, {@code 10.0.0.0/8},
 * {@code fd00::/8}), matched against the address a request goes to. An allowed name may resolve anywhere: the user
 * vouched for the name.
 */
final class AllowedHosts {
    static final AllowedHosts NONE = new AllowedHosts(Set.of(), List.of());

    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");

    private static final Pattern LABEL = Pattern.compile("[a-z0-9_-]{1,63}");

    private final Set<String> names;
    private final List<AddressBlock> blocks;

    private AllowedHosts(Set<String> names, List<AddressBlock> blocks) {
        this.names = names;
        this.blocks = blocks;
    }

    /**
     * Reads the user's entries.
     *
     * @throws IllegalArgumentException with one sentence naming the first entry that is not a host name, an IP
     *     address or a CIDR block
     */
    static AllowedHosts parse(List<String> entries) {
        Set<String> names = new HashSet<>();
        List<AddressBlock> blocks = new ArrayList<>();
        for (String entry : entries) {
            String text = entry == null ? "" : entry.strip();
            if (text.isEmpty()) {
                throw new IllegalArgumentException("An allowed host is empty; give a host name, an IP address or a"
                        + " CIDR block such as 10.0.0.0/8.");
            }
            if (text.indexOf('/') >= 0 || text.indexOf(':') >= 0 || looksNumeric(text)) {
                blocks.add(AddressBlock.parse(text));
            } else {
                names.add(name(text));
            }
        }
        return new AllowedHosts(Set.copyOf(names), List.copyOf(blocks));
    }

    private static String name(String text) {
        String host;
        try {
            // okhttp's canonical form, lower case and punycode, is what a URL's host will be compared in.
            host = withoutTrailingDot(
                    new HttpUrl.Builder().scheme("http").host(text).build().host());
        } catch (IllegalArgumentException e) {
            host = "";
        }
        if (host.isEmpty()
                || host.length() > 253
                || !List.of(host.split("\\.", -1)).stream()
                        .allMatch(label -> LABEL.matcher(label).matches())) {
            throw notAnEntry(text);
        }
        return host;
    }

    /** Whether {@code text} would be read as an IPv4 address, or is digits and dots that could only mean one. */
    static boolean looksNumeric(String text) {
        return DIGITS_AND_DOTS.matcher(text).matches()
                || !HostLiterals.addresses(text).isEmpty();
    }

    static IllegalArgumentException notAnEntry(String entry) {
        return new IllegalArgumentException("'" + entry + "' is not a host name, an IP address or a CIDR block (such"
                + " as wiki.example.com, 10.0.0.5, 10.0.0.0/8 or fd00::/8; no scheme or port).");
    }

    /** Whether the user allowed {@code host}, a URL's host, by name. */
    boolean permitsName(String host) {
        return names.contains(withoutTrailingDot(host));
    }

    /** Whether the user allowed {@code address}, or the IPv4 address it is a form of. */
    boolean permitsAddress(InetAddress address) {
        InetAddress target = InternalAddresses.embeddedIpv4(address).orElse(address);
        return blocks.stream().anyMatch(block -> block.contains(address) || block.contains(target));
    }

    private static String withoutTrailingDot(String host) {
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }
}
