package dev.dockhand.tools;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.Dns;

/** A stand-in for DNS that knows only the names a test gives it, so that no test asks a real resolver. */
final class TestResolver {
    private TestResolver() {}

    /** Resolves each name to its addresses, written as IP literals; any other name is unknown. */
    static Dns of(Map<String, List<String>> names) {
        return host -> {
            List<String> literals = names.get(host);
            if (literals == null) {
                throw new UnknownHostException(host + " is not known to this test");
            }
            List<InetAddress> addresses = new ArrayList<>();
            for (String literal : literals) {
                // Only IP literals reach here, which the JDK reads without a lookup.
                addresses.add(InetAddress.getByName(literal));
            }
            return addresses;
        };
    }

    /** Knows no name at all. */
    static Dns none() {
        return of(Map.of());
    }
}
