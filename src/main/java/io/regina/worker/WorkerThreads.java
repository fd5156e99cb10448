package io.regina.worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a worker runs on: virtual threads where the JVM has them (Java 21+, found by a method-handle
 * lookup since this code compiles for 17), daemon platform threads otherwise. A worker blocks on HTTP and on
 * its job; it never needs more than a handful of them.
 */
final class WorkerThreads {
    private static final ThreadFactory VIRTUAL = virtualFactory();

    private WorkerThreads() {
    }

    static ThreadFactory named(String prefix) {
        if (VIRTUAL != null) {
            return VIRTUAL;
        }
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static ThreadFactory virtualFactory() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            var lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Object ofVirtual = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
            return (ThreadFactory) lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class))
                    .invoke(ofVirtual);
        } catch (Throwable unavailable) {
            return null;
        }
    }
}
