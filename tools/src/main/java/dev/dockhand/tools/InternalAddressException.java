package dev.dockhand.tools;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A request would have gone to an internal address the user did not allow. An {@link UnknownHostException} because
 * okhttp lets a resolver throw nothing else, and to the request the host has no address it may use.
 */
final class InternalAddressException extends UnknownHostException {
    private static final long serialVersionUID = 1L;

    /** The host as the URL names it. */
    private final String host;
    /** The address, as URLs write it. */
    private final String address;
    /** The kind of address, as a phrase: "a loopback address". */
    private final String kind;

    InternalAddressException(String host, InetAddress address, String kind) {
        super(host + " is at " + InternalAddresses.text(address) + ", " + kind);
        this.host = host;
        this.address = InternalAddresses.text(address);
        this.kind = kind;
    }

    /** Says, for the model and the user, what was refused and how the user could allow it; nothing more. */
    String explain(String url, Hop hop) {
        String where = host.equals(address) ? host : host + " (" + address + ")";
        String what = hop == Hop.REDIRECT ? "it redirected to " + where + ", " : where + " is ";
        // A host written as an address, however spelled, is allowed as that address; a name as itself.
        String entry = HostLiterals.addresses(host).isEmpty() ? host : address;
        return "Fetching " + url + " was refused: " + what + kind + " inside the user's machine or network."
                + " web_fetch does not reach there unless the user allows it by adding \"" + entry + "\" to"
                + " webFetch.allowedHosts in ~/.dockhand/settings.json.";
    }

    /** Whether the refused request was the URL asked for or a redirect from it. */
    enum Hop {
        /** The URL the model asked for. */
        FIRST,
        /** A URL a server redirected to, after the first. */
        REDIRECT
    }
}
