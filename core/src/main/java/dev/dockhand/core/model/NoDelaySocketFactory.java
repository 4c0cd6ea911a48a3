package dev.dockhand.core.model;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with Nagle's algorithm off. A request body's last partial segment otherwise waits for the server's
 * delayed ACK, about 40 ms on Linux, on every model request: a visible share of each tool round.
 */
final class NoDelaySocketFactory extends SocketFactory {
    private final SocketFactory delegate = SocketFactory.getDefault();

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }

    private static Socket noDelay(Socket socket) throws IOException {
        socket.setTcpNoDelay(true);
        return socket;
    }
}
