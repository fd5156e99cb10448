package io.regina.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives the C heap's free memory back to the OS every few seconds ({@link TrimSchedule} says when), as
 * {@code -XX:TrimNativeHeapInterval} does when set (it is not a flag a running JVM may change). glibc keeps
 * what the JVM frees, above all the JIT compilers' arenas after a burst of compiling, in its per-thread
 * arenas: 34 MB of a loaded broker's RSS in the paced lane (docs/benchmarks.md, session 22). It runs
 * {@code System.trim_native_heap}, the diagnostic command of JDK 17.0.9 and later; on a JVM without it (or
 * not on glibc, where the command says so) it does nothing.
 */
public final class NativeHeapTrimmer {
    private static final Logger LOG = LoggerFactory.getLogger(NativeHeapTrimmer.class);
    private static final String OPERATION = "systemTrimNativeHeap";
    /** "Trim native heap: RSS+Swap: 580M->547M (-34296K)": the change in KB, negative when memory went back. */
    private static final Pattern CHANGE = Pattern.compile("\\(([+-]?\\d+)K\\)");

    private final MBeanServer server;
    private final ObjectName command;

    private NativeHeapTrimmer(MBeanServer server, ObjectName command) {
        this.server = server;
        this.command = command;
    }

    /** This JVM's trimmer; empty when it has no {@code System.trim_native_heap}. */
    public static Optional<NativeHeapTrimmer> ofThisJvm() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName command = new ObjectName("com.sun.management:type=DiagnosticCommand");
            boolean present = Arrays.stream(server.getMBeanInfo(command).getOperations())
                    .map(MBeanOperationInfo::getName).anyMatch(OPERATION::equals);
            return present ? Optional.of(new NativeHeapTrimmer(server, command)) : Optional.empty();
        } catch (JMException | RuntimeException e) {
            LOG.debug("no native heap trimming on this JVM: {}", e.toString());
            return Optional.empty();
        }
    }

    /** Starts trimming as {@link TrimSchedule} says, on one daemon thread, if this JVM can. */
    public static void start() {
        ofThisJvm().ifPresent(trimmer -> {
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "regina-native-heap-trim");
                thread.setDaemon(true);
                return thread;
            });
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            boolean jitSays = jit != null && jit.isCompilationTimeMonitoringSupported();
            TrimSchedule schedule = new TrimSchedule(System.currentTimeMillis());
            timer.scheduleWithFixedDelay(() -> {
                if (schedule.trimAt(System.currentTimeMillis(), jitSays ? jit.getTotalCompilationTime() : -1)) {
                    trimmer.trimQuietly();
                }
            }, TrimSchedule.LOOK_MS, TrimSchedule.LOOK_MS, TimeUnit.MILLISECONDS);
        });
    }

    /**
     * Trims once.
     *
     * @return the resident memory given back, in KB (0 when nothing was, or the command did not say)
     */
    public long trim() throws JMException {
        Object report = server.invoke(command, OPERATION, new Object[] {new String[0]},
                new String[] {String[].class.getName()});
        return releasedKb(String.valueOf(report));
    }

    static long releasedKb(String report) {
        Matcher change = CHANGE.matcher(report);
        return change.find() ? Math.max(0, -Long.parseLong(change.group(1))) : 0;
    }

    private void trimQuietly() {
        try {
            long released = trim();
            if (released > 0) {
                LOG.debug("native heap trimmed: {} KB back to the OS", released);
            }
        } catch (JMException | RuntimeException e) {
            LOG.debug("native heap trim failed: {}", e.toString());
        }
    }
}
