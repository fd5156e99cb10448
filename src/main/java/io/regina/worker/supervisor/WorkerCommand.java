package io.regina.worker.supervisor;

import io.regina.worker.WorkerMain;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * The command line of one worker JVM: the supervisor's own {@code java}, the user's classpath with Regina's,
 * and {@link WorkerMain} with the supervisor's options. Inside the Spring Boot jar ({@code java -jar
 * regina.jar queue:work}) Regina's classes and Jackson are nested in the jar, so the worker starts through
 * Boot's {@code PropertiesLauncher}, which adds the user's classpath ({@code loader.path}); elsewhere (an
 * application's own classpath, the tests) it is a plain {@code -cp}.
 */
final class WorkerCommand {
    static final String BOOT_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";
    /** Out of heap, a worker must die rather than go on half-broken: it is replaced, its job released. */
    static final String EXIT_ON_OOM = "-XX:+ExitOnOutOfMemoryError";

    private WorkerCommand() {
    }

    static List<String> of(SupervisorOptions o) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add(EXIT_ON_OOM);
        command.addAll(o.workerJavaOptions());
        String own = System.getProperty("java.class.path");
        if (isBootJar(own)) {
            command.addAll(List.of("-Dloader.main=" + WorkerMain.class.getName(),
                    "-Dloader.path=" + String.join(",", o.classpath().split(File.pathSeparator)),
                    "-cp", own, BOOT_LAUNCHER));
        } else {
            command.addAll(List.of("-cp", o.classpath() + File.pathSeparator + own, WorkerMain.class.getName()));
        }
        command.addAll(List.of("--url", o.url(), "--queue", o.queue(), "--job", o.job(),
                "--prefetch", Integer.toString(o.prefetch()), "--lease", Integer.toString(o.leaseSeconds()),
                "--tries", Integer.toString(o.tries()), "--timeout", Long.toString(o.timeout().toSeconds()),
                "--grace", Long.toString(o.shutdownGrace().toSeconds()), "--poll", Long.toString(o.poll().toSeconds()),
                "--journal", "-", "--supervised"));
        if (o.group() != null) {
            command.addAll(List.of("--group", o.group()));
        }
        if (!o.backoffSeconds().isEmpty()) {
            command.addAll(List.of("--backoff",
                    o.backoffSeconds().stream().map(String::valueOf).collect(Collectors.joining(","))));
        }
        if (o.asyncAcks()) {
            command.add("--async-acks");
        }
        if (o.popAhead()) {
            command.add("--pop-ahead");
        }
        return command;
    }

    private static boolean isBootJar(String classpath) {
        if (classpath == null || classpath.contains(File.pathSeparator) || !classpath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classpath)) {
            return jar.getManifest() != null && jar.getManifest().getMainAttributes().getValue("Spring-Boot-Classes") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
