package dev.dockhand.tools;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The addresses a URL host stands for when it is an address rather than a name. okhttp connects to such hosts without
 * asking DNS, and the parsers disagree on odd IPv4 spellings: to the C library (and so to DNS-less lookups)
 * {@code 0177.0.0.1} is 127.0.0.1, to the JDK, which okhttp asks when a host is only digits and dots, it is 177.0.0.1.
 * So every reading is returned, and a host passes only when all of them do.
 */
final class HostLiterals {
    private HostLiterals() {}

    /** How a part of a numeric IPv4 host is read. */
    private enum Reading {
        /** The C library's inet_aton: {@code 0x} starts hexadecimal, a leading {@code 0} octal. */
        C_LIBRARY,
        /** The JDK's: decimal only, leading zeros ignored. */
        JDK
    }

    /** Every address {@code host} (as okhttp gives it: IPv6 without brackets) can denote; empty for a host name. */
    static List<InetAddress> addresses(String host) {
        if (host.indexOf(':') >= 0) {
            try {
                // In brackets the JDK reads an IPv6 literal or fails; it never looks the text up in DNS.
                return List.of(InetAddress.getByName("[" + host + "]"));
            } catch (UnknownHostException e) {
                return List.of();
            }
        }
        // A trailing dot makes the JDK ask DNS, which could answer anything; read the address the dot follows.
        String dotted = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = dotted.split("\\.", -1);
        Set<InetAddress> readings = new LinkedHashSet<>();
        for (Reading reading : Reading.values()) {
            ipv4(parts, reading).ifPresent(readings::add);
        }
        return List.copyOf(readings);
    }

    /**
     * The address of one to four numbers: each but the last is a byte, the last fills the bytes left
     * ({@code 127.1} is 127.0.0.1, {@code 2130706433} too).
     */
    private static Optional<InetAddress> ipv4(String[] parts, Reading reading) {
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Optional<Long> value = number(parts[i], reading);
            long limit = i < parts.length - 1 ? 0xffL : 0xffff_ffffL >>> (8 * i);
            if (value.isEmpty() || value.get() > limit) {
                return Optional.empty();
            }
            values[i] = value.get();
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            address |= values[i] << (24 - 8 * i);
        }
        address |= values[values.length - 1];
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        return Optional.of(AddressBlock.addressOf(bytes));
    }

    private static Optional<Long> number(String part, Reading reading) {
        String lower = part.toLowerCase(Locale.ROOT);
        boolean hex = reading == Reading.C_LIBRARY && lower.startsWith("0x");
        boolean octal = reading == Reading.C_LIBRARY && !hex && lower.length() > 1 && lower.startsWith("0");
        int radix = hex ? 16 : octal ? 8 : 10;
        // inet_aton reads a bare "0x" as zero.
        String digits = hex ? (lower.length() == 2 ? "0" : lower.substring(2)) : lower;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, radix) >= 0)) {
            return Optional.empty();
        }
        String significant = digits.replaceFirst("^0+(?=.)", "");
        // More than twelve digits is past 32 bits in every radix here, and past what Long.parseLong could hold.
        return significant.length() > 12
                ? Optional.of(Long.MAX_VALUE)
                : Optional.of(Long.parseLong(significant, radix));
    }
}
