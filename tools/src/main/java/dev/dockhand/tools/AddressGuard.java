package dev.dockhand.tools;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.Dns;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Keeps web_fetch from reaching internal addresses the user did not allow, at each point where a request meets an
 * address. Before a request: a host that is an address, however spelled, since okhttp connects to those without
 * asking DNS ({@link #checkHost}). On lookup: a name's addresses, keeping the allowed ones and refusing when none is
 * left ({@link #lookup}). After connecting and before a byte is written: the address actually connected to, which
 * catches what the first two could miss, such as a host the JDK reads differently ({@link #intercept}, installed as a
 * network interceptor). A host the user allowed by name may go anywhere.
 */
final class AddressGuard implements Dns, Interceptor {
    private final AllowedHosts allowed;
    private final Dns resolver;

    AddressGuard(AllowedHosts allowed, Dns resolver) {
        this.allowed = allowed;
        this.resolver = resolver;
    }

    /** Refuses {@code host}, a URL's host, if it is an internal address, in any of its readings, not allowed. */
    void checkHost(String host) throws InternalAddressException {
        for (InetAddress address : HostLiterals.addresses(host)) {
            check(host, address);
        }
    }

    @Override
    public List<InetAddress> lookup(String hostname) throws UnknownHostException {
        // okhttp asks about spellings such as 0x7f.1 that the C library would read as an address without DNS; they
        // are read here the same way, so what was checked is what is connected to.
        List<InetAddress> literal = HostLiterals.addresses(hostname);
        List<InetAddress> found = literal.isEmpty() ? resolver.lookup(hostname) : literal;
        if (allowed.permitsName(hostname)) {
            return found;
        }
        List<InetAddress> permitted = new ArrayList<>();
        Optional<InternalAddressException> firstRefusal = Optional.empty();
        for (InetAddress address : found) {
            Optional<InternalAddressException> refusal = refusal(hostname, address);
            if (refusal.isEmpty()) {
                permitted.add(address);
            } else if (firstRefusal.isEmpty()) {
                firstRefusal = refusal;
            }
        }
        // A name with public and internal addresses keeps the public ones: only those will be connected to.
        if (permitted.isEmpty() && firstRefusal.isPresent()) {
            throw firstRefusal.get();
        }
        return permitted;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        // A network interceptor always has the connection; its route names the address the socket went to.
        InetAddress address = chain.connection().route().socketAddress().getAddress();
        check(chain.request().url().host(), address);
        return chain.proceed(chain.request());
    }

    private void check(String host, InetAddress address) throws InternalAddressException {
        Optional<InternalAddressException> refusal = refusal(host, address);
        if (refusal.isPresent()) {
            throw refusal.get();
        }
    }

    private Optional<InternalAddressException> refusal(String host, InetAddress address) {
        if (allowed.permitsName(host) || allowed.permitsAddress(address)) {
            return Optional.empty();
        }
        return InternalAddresses.kind(address).map(kind -> new InternalAddressException(host, address, kind));
    }
}
