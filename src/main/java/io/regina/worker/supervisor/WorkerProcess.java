package io.regina.worker.supervisor;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One worker JVM and its journal: a thread reads the worker's stdout line by line into its {@link LeaseLedger}
 * (anything that is not a journal line goes to the supervisor's stderr). {@link #ending()} says why the
 * supervisor ended it, if it did.
 */
final class WorkerProcess {

    /** Why the supervisor ended a worker; a worker that ends without one crashed, or stopped on its own. */
    enum Ending {
        /** Its job ran past the timeout: killed. */
        TIMEOUT,
        /** Over {@code --memory}: asked to stop after its job. */
        MEMORY,
        /** The supervisor is stopping: asked to stop, killed past the grace. */
        DEPLOY,
        /** Fewer workers wanted ({@link SlotPlan}): asked to stop while idle, not replaced. */
        SCALE_DOWN
    }

    private final int slot;
    private final Process process;
    private final LeaseLedger ledger;
    private final Thread reader;
    private volatile Ending ending;

    private WorkerProcess(int slot, Process process, LeaseLedger ledger, JsonMapper json) {
        this.slot = slot;
        this.process = process;
        this.ledger = ledger;
        this.reader = new Thread(() -> read(json), "regina-journal-" + slot + "-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static WorkerProcess start(int slot, List<String> command, Map<String, String> environment, JsonMapper json)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        return new WorkerProcess(slot, builder.start(), new LeaseLedger(json), json);
    }

    int slot() {
        return slot;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    int exitValue() {
        return process.exitValue();
    }

    LeaseLedger ledger() {
        return ledger;
    }

    Ending ending() {
        return ending;
    }

    /**
     * SIGTERM: the worker stops popping, finishes its job within its grace and hands back the rest. Sent
     * through the {@link ProcessHandle}: {@link Process#destroy()} also closes the pipe of stdout, and the
     * journal lines the worker writes while it stops would be lost.
     */
    void stopGracefully(Ending why) {
        if (ending == null) {
            ending = why;
        }
        process.toHandle().destroy();
    }

    /** SIGKILL: whatever it holds is the supervisor's to hand back (through the handle, as above). */
    void kill(Ending why) {
        ending = why;
        process.toHandle().destroyForcibly();
    }

    /** Waits until the journal is read to its end, after the process died: what it wrote last counts. */
    void awaitJournal() throws InterruptedException {
        reader.join(5_000);
    }

    /** The resident set size in MiB, from /proc (Linux); empty where there is none or the process is gone. */
    OptionalLong residentMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String kib = line.substring("VmRSS:".length()).replace("kB", "").trim();
                    return OptionalLong.of(Long.parseLong(kib) / 1024);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // gone, or not Linux: no reading
        }
        return OptionalLong.empty();
    }

    private void read(JsonMapper json) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (!journaled(json, line)) {
                    System.err.println("worker " + slot + " (pid " + process.pid() + "): " + line);
                }
            }
        } catch (IOException e) {
            // the pipe broke with the process: the ledger keeps what was read
        }
    }

    private boolean journaled(JsonMapper json, String line) {
        if (!line.startsWith("{")) {
            return false;
        }
        try {
            JsonNode node = json.readTree(line);
            return node.isObject() && ledger.apply(node);
        } catch (JacksonException e) {
            return false;
        }
    }
}
