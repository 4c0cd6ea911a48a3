package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Small tools for exercising the scheduler and loop without touching files or processes. */
public final class TestTools {
    private TestTools() {}

    /** Shared base: a tool of a given name and kind taking {@code {text}}, recording each run. */
    public abstract static class Base implements Tool<Base.Params> {
        /** The single text argument. */
        public record Params(String text) {}

        private final String name;
        private final ToolKind kind;
        public final List<String> runs = new CopyOnWriteArrayList<>();

        protected Base(String name, ToolKind kind) {
            this.name = name;
            this.kind = kind;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "Test tool " + name + ".";
        }

        @Override
        public ObjectNode parameterSchema() {
            return Schema.object().required("text", Schema.string("Any text.")).build();
        }

        @Override
        public ToolKind kind() {
            return kind;
        }

        @Override
        public Class<Params> paramsType() {
            return Params.class;
        }

        @Override
        public String summarize(Params params) {
            return params.text();
        }
    }

    /** Answers "echo: TEXT"; tests may subclass it to change one trait. */
    public static class Echo extends Base {
        public Echo(String name, ToolKind kind) {
            super(name, kind);
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            runs.add(params.text());
            return ToolResult.success("echo: " + params.text(), "echoed");
        }
    }

    /**
     * Blocks until cancelled (or until {@link #release}), like a long command. {@link #started} opens when it runs.
     */
    public static final class Blocking extends Base {
        public final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        public Blocking(String name, ToolKind kind) {
            super(name, kind);
        }

        public void release() {
            release.countDown();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) throws InterruptedException {
            runs.add(params.text());
            try (var ignored = context.cancellation().onCancel(release::countDown)) {
                started.countDown();
                release.await(120, TimeUnit.SECONDS);
            }
            if (context.cancellation().isCancelled()) {
                return ToolResult.error(dev.dockhand.core.tool.ToolErrorType.CANCELLED, "stopped by cancel");
            }
            return ToolResult.success("released", "released");
        }
    }

    /** Succeeds only if {@code parties} calls of it run at the same time; proves READ calls run concurrently. */
    public static final class Rendezvous extends Base {
        private final CountDownLatch all;

        public Rendezvous(String name, int parties) {
            super(name, ToolKind.READ);
            this.all = new CountDownLatch(parties);
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) throws InterruptedException {
            runs.add(params.text());
            all.countDown();
            boolean together = all.await(60, TimeUnit.SECONDS);
            return ToolResult.success(together ? "met " + params.text() : "alone " + params.text(), "");
        }
    }

    /** Throws, like a buggy tool. */
    public static final class Throwing extends Base {
        public Throwing(String name) {
            super(name, ToolKind.READ);
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            throw new IllegalStateException("boom");
        }
    }
}
