package io.regina.bench;

import java.util.ArrayList;
import java.util.List;

/** How big and how often: the lanes' sizes for a quick or a full run, and the options that change them. */
record Settings(boolean quick, int runs, int poolJobs, List<Integer> poolWorkers, List<Integer> poolJobMillis,
                List<Integer> rates, int pacedSeconds, int clockTicks, String nonce) {

    /** Each run starts the systems in a different order, so none always runs right after a warm one. */
    List<QueueSystem> order(List<QueueSystem> systems, int run) {
        List<QueueSystem> out = new ArrayList<>(systems);
        java.util.Collections.rotate(out, -((run - 1) % Math.max(1, systems.size())));
        return out;
    }

    String queue(String lane, int run) {
        return "bench-" + lane + "-r" + run + "-" + nonce + "-" + System.nanoTime() % 1_000_000;
    }
}
