package dev.dockhand.cli;

import dev.dockhand.core.scheduler.CoreToolScheduler;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Loads and initialises, on a second thread, the classes almost every run needs later (IDN, Jackson, the tools,
 * okhttp, the OpenAI-compatible client) while the main thread parses the command line. Start-up on the JVM is mostly
 * class loading, machines have more than one core, and the command line cannot be parsed any sooner; so this hides
 * much of the rest behind it. Touching a class has no effect beyond its static initialiser, and a class that fails
 * here is simply loaded again, and reported, where it is used. The tool validator starts on a thread of its own,
 * once the session is open ({@link #toolsOnce}), and TLS on two more, once the model is known to be reached over
 * https ({@link #tlsOnce}).
 */
public final class Warmup {
    private static final AtomicBoolean TOOLS_STARTED = new AtomicBoolean();
    private static final AtomicBoolean TLS_STARTED = new AtomicBoolean();

    /**
     * The trust managers the TLS warm-up built, held for the life of the process: the JDK caches the roots it loaded
     * only weakly, and a collection before the client is built would send it back to the file.
     */
    @SuppressWarnings("unused")
    private static volatile TrustManager[] trustManagers;

    /**
     * By name, so that loading this class links none of them; roughly in the order a run needs them. IDN comes first:
     * okhttp passes every host, an IP address too, through {@code IDN.toASCII}, whose first use loads ICU's data for
     * about 30 ms, and the main thread parses the base URL soon after the command line. TaskRunner's static logger
     * starts java.util.logging.
     */
    private static final List<String> CLASSES = List.of(
            "java.net.IDN",
            "dev.dockhand.core.Json",
            "dev.dockhand.tools.BuiltinTools",
            "kotlin.jvm.internal.Intrinsics",
            "okio.Buffer",
            "okhttp3.OkHttpClient",
            "okhttp3.internal.platform.Platform",
            "okhttp3.internal.connection.RealCall",
            "okhttp3.internal.concurrent.TaskRunner",
            "okhttp3.internal.http.RealInterceptorChain",
            "dev.dockhand.core.model.openai.OpenAiClient",
            "dev.dockhand.core.model.ProviderStreams",
            "dev.dockhand.core.agent.AgentLoop",
            "dev.dockhand.core.scheduler.CoreToolScheduler");

    private Warmup() {}

    /**
     * Whether a run of this command line talks to a model, the only kind the warm-up serves: {@code --help},
     * {@code --version} and the {@code config} and {@code sessions} subcommands would only pay for it.
     */
    static boolean helpsWith(String[] args) {
        if (args.length > 0 && (args[0].equals("config") || args[0].equals("sessions"))) {
            return false;
        }
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("-h") || arg.equals("--help") || arg.equals("-V") || arg.equals("--version")) {
                return false;
            }
        }
        return true;
    }

    static void start() {
        // A Thread subclass, not a method reference: the first lambda of a JVM sets up invokedynamic's machinery,
        // about 10 ms, and that should not be on the main thread before anything else has started.
        Thread thread = new Thread("dockhand-warmup") {
            @Override
            public void run() {
                Warmup.run();
            }
        };
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void run() {
        ClassLoader loader = Warmup.class.getClassLoader();
        for (String name : CLASSES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // Nothing to gain here; the real use will load it, or report why it cannot.
            }
        }
    }

    /**
     * Starts the scheduler's validator up on a spare thread, once per process (see
     * {@link CoreToolScheduler#warmValidation}). Called when the session opens: the schema library's start-up (its
     * dialect, Jackson's record binding and logging, about 30 ms here) then overlaps the rest of the start-up and the
     * first request, and the first tool round finds it done. Started at the first request instead, it was still
     * running when an instant model's first tool call came (the first round's gap 26 ms against 16, medians of
     * sixteen alternating runs), and {@code -p "hello"} was no faster for it.
     */
    static void toolsOnce(CoreToolScheduler scheduler) {
        if (TOOLS_STARTED.compareAndSet(false, true)) {
            daemon("dockhand-warmup-tools", () -> {
                        try {
                            scheduler.warmValidation();
                        } catch (RuntimeException | LinkageError e) {
                            // As above: validating a real call reports any problem.
                        }
                    })
                    .start();
        }
    }

    /**
     * Starts TLS up on two spare threads, once per process, when the model is reached over https: the first https
     * request otherwise pays, on the main thread, for loading and parsing the JDK's trust store (about 45 ms here)
     * and the TLS context's cipher-suite tables when the client is built, then for the key shares of the first
     * ClientHello. On JDK 25 the P-256 share alone took 56 ms, most of it building the curve's precomputed table once
     * per process. Called as soon as the base URL is known, 10-20 ms before the client is built; the main thread then
     * waits for what is still running rather than doing it again (the JDK locks both). Two threads, not one: the
     * main thread waits for the trust store while the key shares are made, instead of waiting for both in turn.
     */
    static void tlsOnce(String baseUrl) {
        if (overTls(baseUrl) && TLS_STARTED.compareAndSet(false, true)) {
            daemon("dockhand-warmup-trust", Warmup::trust).start();
            daemon("dockhand-warmup-keys", Warmup::keyShares).start();
        }
    }

    /** A thread that does not keep the JVM alive: warm-up work is worth nothing once the run is over. */
    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Whether requests to this base URL go over TLS; the scheme may be written in capitals. */
    static boolean overTls(String baseUrl) {
        return baseUrl.regionMatches(true, 0, "https://", 0, 8);
    }

    /** The client's trust manager, from the JDK's default trust store, and the TLS context's tables. */
    private static void trust() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init((KeyStore) null);
            trustManagers = trust.getTrustManagers();
            SSLContext.getInstance("TLS");
        } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
            // Nothing to gain here; building the client does the same work and reports what fails.
        }
    }

    /** One X25519 and one P-256 key pair, the two shares the JDK's first ClientHello offers by default. */
    private static void keyShares() {
        try {
            KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
            ec.initialize(new ECGenParameterSpec("secp256r1"));
            ec.generateKeyPair();
            KeyPairGenerator.getInstance("X25519").generateKeyPair();
        } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
            // As above: the handshake makes its own and reports what fails.
        }
    }
}
