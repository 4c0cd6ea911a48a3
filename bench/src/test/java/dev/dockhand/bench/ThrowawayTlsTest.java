package dev.dockhand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.ChildProcess;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.testing.ScriptedServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThrowawayTlsTest {
    @TempDir
    static Path keys;

    private static ThrowawayTls tls;

    @BeforeAll
    static void makeKeys() throws Exception {
        tls = ThrowawayTls.create(keys);
    }

    @Test
    void trustStoreHoldsTheJdkDefaultRootsAndTheThrowawayCaAndOpensWithoutAPassword() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.trustStore())) {
            // As the JDK opens its trust store when javax.net.ssl.trustStorePassword is not set.
            store.load(in, null);
        }
        Set<Certificate> held = new HashSet<>();
        for (String alias : Collections.list(store.aliases())) {
            held.add(store.getCertificate(alias));
        }

        TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        defaults.init((KeyStore) null);
        Set<Certificate> expected =
                new HashSet<>(List.of(((X509TrustManager) defaults.getTrustManagers()[0]).getAcceptedIssuers()));
        X509Certificate ca = (X509Certificate) store.getCertificate("dockhand-throwaway-ca");
        expected.add(ca);

        assertEquals(expected, held);
        assertEquals("CN=Dockhand throwaway CA", ca.getSubjectX500Principal().getName());
    }

    @Test
    void aDockhandRunGetsItsAnswerFromTheScriptedModelOverHttps() throws Exception {
        try (ScriptedServer model =
                new ScriptedServer(List.of(ScriptedServer.answer("Over TLS.")), tls.serverContext())) {
            Result result = dockhand(model.baseUrl(), tls.trustStore());

            assertEquals(new Result(ExitCodes.OK, "Over TLS.\n"), result);
            assertEquals(1, model.exchanges().size());
        }
    }

    @Test
    void aRunThatDoesNotTrustTheThrowawayCaIsRefusedTheConnection() throws Exception {
        try (ScriptedServer model =
                new ScriptedServer(List.of(ScriptedServer.answer("Over TLS.")), tls.serverContext())) {
            // The JDK's own roots only: the handshake must fail, or the test above proves nothing about the CA.
            Result result = dockhand(model.baseUrl(), null);

            assertEquals(new Result(ExitCodes.PROVIDER_FAILURE, ""), result);
            assertEquals(0, model.exchanges().size());
        }
    }

    private record Result(int exitCode, String stdout) {}

    /** {@code dockhand -p hello} in a JVM of its own, trusting {@code trustStore} when given. */
    private static Result dockhand(String baseUrl, Path trustStore) throws Exception {
        Path work = Files.createTempDirectory(keys, "run");
        List<String> options = trustStore == null ? List.of() : List.of("-Djavax.net.ssl.trustStore=" + trustStore);
        ChildProcess.Outcome outcome = ChildProcess.run(
                ChildProcess.dockhand(options, ChildProcess.helloTo(baseUrl)),
                work,
                ChildProcess.variablesFor(work),
                Duration.ofMinutes(1));
        return new Result(outcome.exitCode(), outcome.stdout());
    }
}
