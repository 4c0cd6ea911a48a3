package dev.dockhand.cli.environment;

import java.lang.reflect.Proxy;
import org.slf4j.LoggerFactory;

/**
 * Turns Ctrl-C into a cancel instead of an abrupt JVM exit, so running commands are killed and the run ends with its
 * own summary and exit code 130. Reached through reflection: {@code sun.misc.Signal} is exported by
 * jdk.unsupported but javac flags every direct use, and we build with warnings as errors. If it is missing, the JVM's
 * default (exit 130 at once) still applies.
 */
public final class Interrupts {
    private Interrupts() {}

    /** Runs {@code onInterrupt} on each SIGINT, on the JVM's signal thread. Returns false when unavailable. */
    public static boolean onSigint(Runnable onInterrupt) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object handler = Proxy.newProxyInstance(
                    Interrupts.class.getClassLoader(), new Class<?>[] {handlerClass}, (proxy, method, args) -> {
                        if (method.getName().equals("handle")) {
                            onInterrupt.run();
                        }
                        return null;
                    });
            Object signal = signalClass.getConstructor(String.class).newInstance("INT");
            signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
            return true;
        } catch (Throwable e) {
            // Anything at all (a missing class, a refused lookup, a JVM that will not hand out SIGINT) leaves the
            // JVM's own handling in place, which is still a correct way to stop. The logger is fetched here, not held
            // in a field: SLF4J's start-up is not worth paying on every run.
            LoggerFactory.getLogger(Interrupts.class)
                    .info("SIGINT handling unavailable; Ctrl-C will end the JVM directly", e);
            return false;
        }
    }
}
