package dev.dockhand.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * TLS for the benchmark's https scenario, so S1 is also measured on the path a hosted model's users take on every
 * start: loading the JDK's trust store, building the TLS context, a TLS 1.3 handshake and a certificate chain to
 * validate.
 *
 * <p>The JDK has no public API to issue a certificate, so its own {@code keytool} makes a throwaway CA and a
 * certificate for 127.0.0.1 signed by it, valid for two days. The trust store holds the JDK's default roots plus
 * that CA, unprotected as the JDK's own {@code cacerts} is, so loading it takes the same path a normal run's does.
 */
public final class ThrowawayTls {
    private static final String ALIAS = "model";
    private static final char[] PASSWORD = "throwaway".toCharArray();

    private final SSLContext serverContext;
    private final Path trustStore;

    private ThrowawayTls(SSLContext serverContext, Path trustStore) {
        this.serverContext = serverContext;
        this.trustStore = trustStore;
    }

    /** The context the model's https server presents its certificate chain with. */
    public SSLContext serverContext() {
        return serverContext;
    }

    /** The trust store a client passes as {@code -Djavax.net.ssl.trustStore} (no password) to trust the model. */
    public Path trustStore() {
        return trustStore;
    }

    /** Makes the keys and stores in {@code dir}; fails when the JDK has no keytool or keytool fails. */
    public static ThrowawayTls create(Path dir) throws IOException, GeneralSecurityException {
        Path keys = dir.resolve("throwaway-keys.p12");
        keytool(
                dir,
                "-genkeypair",
                "-alias",
                "ca",
                "-dname",
                "CN=Dockhand throwaway CA",
                "-ext",
                "bc:c",
                "-keystore",
                keys.toString());
        keytool(
                dir,
                "-genkeypair",
                "-alias",
                ALIAS,
                "-dname",
                "CN=127.0.0.1",
                "-signer",
                "ca",
                "-ext",
                "SAN=IP:127.0.0.1",
                "-ext",
                "EKU=serverAuth",
                "-keystore",
                keys.toString());
        KeyStore generated = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys)) {
            generated.load(in, PASSWORD);
        }

        // Only the model's entry: with the CA's key beside it, the server could pick either.
        KeyStore server = KeyStore.getInstance("PKCS12");
        server.load(null, null);
        server.setKeyEntry(
                ALIAS, (PrivateKey) generated.getKey(ALIAS, PASSWORD), PASSWORD, generated.getCertificateChain(ALIAS));
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(server, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);

        Path trust = dir.resolve("throwaway-trust.p12");
        writeTrustStore(defaultRoots(), generated.getCertificate("ca"), trust);
        return new ThrowawayTls(context, trust);
    }

    /** The JDK's default trust store, as a run without {@code javax.net.ssl.trustStore} finds it; empty if none. */
    static KeyStore defaultRoots() throws IOException, GeneralSecurityException {
        Path security = Path.of(System.getProperty("java.home"), "lib", "security");
        KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
        for (String name : List.of("jssecacerts", "cacerts")) {
            Path file = security.resolve(name);
            if (Files.isRegularFile(file)) {
                try (InputStream in = Files.newInputStream(file)) {
                    roots.load(in, null);
                }
                return roots;
            }
        }
        roots.load(null, null);
        return roots;
    }

    /** Roots plus the CA, as a PKCS#12 file without a MAC or encryption, as the JDK ships its own. */
    static void writeTrustStore(KeyStore roots, Certificate ca, Path file)
            throws IOException, GeneralSecurityException {
        // Read when the store is written; system properties override the security properties of the same name.
        String protection = System.setProperty("keystore.pkcs12.certProtectionAlgorithm", "NONE");
        String mac = System.setProperty("keystore.pkcs12.macAlgorithm", "NONE");
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            List<String> aliases = new ArrayList<>(Collections.list(roots.aliases()));
            for (String alias : aliases) {
                Certificate root = roots.getCertificate(alias);
                if (root != null) {
                    trust.setCertificateEntry(alias, root);
                }
            }
            trust.setCertificateEntry("dockhand-throwaway-ca", ca);
            try (OutputStream out = Files.newOutputStream(file)) {
                trust.store(out, new char[0]);
            }
        } finally {
            restore("keystore.pkcs12.certProtectionAlgorithm", protection);
            restore("keystore.pkcs12.macAlgorithm", mac);
        }
    }

    private static void restore(String key, String previous) {
        if (previous == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, previous);
        }
    }

    private static void keytool(Path dir, String... args) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IOException("no keytool at " + keytool);
        }
        List<String> command = new ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of(
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-storepass",
                new String(PASSWORD),
                "-keypass",
                new String(PASSWORD)));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool took over a minute");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed with exit code " + process.exitValue());
        }
    }
}
