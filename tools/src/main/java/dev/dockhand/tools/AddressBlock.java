package dev.dockhand.tools;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A block of IP addresses in CIDR form ({@code 10.0.0.0/8}, {@code fc00::/7}); a single address is a block of its
 * full length. An IPv4 block never contains an IPv6 address, nor the reverse: the JDK already turns IPv4-mapped IPv6
 * literals into IPv4 addresses, and other IPv6 forms of IPv4 addresses are {@link InternalAddresses}' concern.
 */
final class AddressBlock {
    /** Four decimal numbers without leading zeros: the only IPv4 spelling that means the same to every parser. */
    private static final Pattern DOTTED_QUAD = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");

    private static final Pattern PREFIX = Pattern.compile("[0-9]{1,3}");

    private final byte[] network;
    private final int prefix;

    private AddressBlock(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /** The block of {@code prefix} bits starting at {@code network}, which must have no bits set past them. */
    static AddressBlock of(byte[] network, int prefix) {
        return new AddressBlock(network.clone(), prefix);
    }

    /**
     * Reads an address ({@code 10.0.0.5}, {@code fd00::1}) or a block ({@code 10.0.0.0/8}, {@code fd00::/8}), as the
     * user writes them in the allowed hosts.
     *
     * @throws IllegalArgumentException with one sentence naming what is wrong with {@code text}
     */
    static AddressBlock parse(String text) {
        int slash = text.indexOf('/');
        byte[] bytes =
                address(slash < 0 ? text : text.substring(0, slash), text).getAddress();
        int bits = bytes.length * 8;
        if (slash < 0) {
            return new AddressBlock(bytes, bits);
        }
        String length = text.substring(slash + 1);
        if (!PREFIX.matcher(length).matches() || Integer.parseInt(length) > bits) {
            throw new IllegalArgumentException(
                    "'" + text + "' needs a prefix length from 0 to " + bits + " after its '/'.");
        }
        AddressBlock block = new AddressBlock(bytes, Integer.parseInt(length));
        byte[] masked = block.masked(bytes);
        if (!Arrays.equals(masked, bytes)) {
            throw new IllegalArgumentException("'" + text + "' has bits set past its prefix; write "
                    + InternalAddresses.text(addressOf(masked)) + "/" + length + ".");
        }
        return block;
    }

    boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == network.length && Arrays.equals(masked(bytes), network);
    }

    private byte[] masked(byte[] bytes) {
        byte[] result = bytes.clone();
        for (int i = 0; i < result.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            result[i] &= (byte) (0xff << (8 - keep));
        }
        return result;
    }

    private static InetAddress address(String text, String entry) {
        if (text.indexOf(':') >= 0) {
            InetAddress address = ipv6(text).orElseThrow(() -> AllowedHosts.notAnEntry(entry));
            if (address instanceof Inet4Address) {
                throw new IllegalArgumentException("'" + entry + "' is an IPv4 address in IPv6 form; write it as "
                        + address.getHostAddress() + ".");
            }
            return address;
        }
        if (DOTTED_QUAD.matcher(text).matches()) {
            String[] parts = text.split("\\.");
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                bytes[i] = (byte) Integer.parseInt(parts[i]);
            }
            if (Arrays.stream(parts).allMatch(part -> Integer.parseInt(part) <= 255)) {
                return addressOf(bytes);
            }
        }
        if (AllowedHosts.looksNumeric(text)) {
            throw new IllegalArgumentException("'" + entry + "' is not an IPv4 address in full: write four numbers"
                    + " from 0 to 255 without leading zeros, such as 127.0.0.1.");
        }
        throw AllowedHosts.notAnEntry(entry);
    }

    private static Optional<InetAddress> ipv6(String text) {
        String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (bare.indexOf('%') >= 0) {
            // A scope names one of this machine's interfaces; the JDK would look it up, and no URL can carry it.
            return Optional.empty();
        }
        try {
            // In brackets the JDK reads an IPv6 literal or fails; it never looks the text up in DNS.
            return Optional.of(InetAddress.getByName("[" + bare + "]"));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** An address from its bytes; the JDK does no lookup for these. */
    static InetAddress addressOf(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + bytes.length, e);
        }
    }

    @Override
    public String toString() {
        return InternalAddresses.text(addressOf(network)) + "/" + prefix;
    }
}
