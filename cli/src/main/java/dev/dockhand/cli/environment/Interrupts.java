package dev.dockhand.cli.environment;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.slf4j.LoggerFactory;

/**
 * Turns Ctrl-C into a cancel instead of an abrupt JVM exit, so running commands are killed and the run ends with its
 * own summary and exit code 130. Reached through method handles: {@code sun.misc.Signal} is exported by
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
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            // The handler is made the way javac makes a lambda, not as a java.lang.reflect.Proxy: a proxy class
            // needs a dynamic module and the proxy generator, 5 ms on the main thread on JDK 17 and 10 on JDK 25.
            MethodHandle forward = lookup.findStatic(
                    Interrupts.class, "forward", MethodType.methodType(void.class, Runnable.class, Object.class));
            MethodType handle = MethodType.methodType(void.class, signalClass);
            Object handler = LambdaMetafactory.metafactory(
                            lookup,
                            "handle",
                            MethodType.methodType(handlerClass, Runnable.class),
                            handle,
                            forward,
                            handle)
                    .getTarget()
                    .invoke(onInterrupt);
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

    /** The handler's body; the signal itself carries nothing we need. */
    private static void forward(Runnable onInterrupt, Object signal) {
        onInterrupt.run();
    }
}
