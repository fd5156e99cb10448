package io.regina.worker.supervisor;

import io.regina.client.Depth;

import java.time.Duration;
import java.time.Instant;

/**
 * How many workers the supervisors of one queue (and group) should run together, from the group's depth:
 * a deterministic state machine, fed one sample at a time, with no clock or broker of its own.
 *
 * <ul>
 * <li>The <b>demand</b> is the batches there is work for: {@code ceil((ready + leased) / prefetch)}. Leased
 *     jobs count, so a worker that is running a job is never counted as spare.</li>
 * <li><b>Up at once</b>: when the demand is above the target and the watch said a pop would find work now
 *     ({@code deliverable}), the target rises to the demand. Not when all the work waits behind partitions
 *     already leased (a new worker would only wait too), and not when the running workers settle everything
 *     within {@link #WORTH_A_WORKER} at their recent rate: a JVM takes about that long to start.</li>
 * <li><b>Down after a cool-down</b>: once the demand has stayed below the target for {@code coolDown}, the
 *     target falls to the highest demand seen in that time. Any sample at or above the target restarts the
 *     cool-down, so a lull between bursts does not make it flap.</li>
 * <li>Bounds: {@code min} to {@code max} per supervisor, so {@code members × min} to {@code members × max}
 *     for the group; the registry ({@link SupervisorRegistry}) says how many members there are.</li>
 * </ul>
 */
final class ScalePolicy {
    static final Duration WORTH_A_WORKER = Duration.ofSeconds(2);

    private final int min;
    private final int max;
    private final int prefetch;
    private final Duration coolDown;
    private int target = -1;
    private Instant lullSince;
    private int lullPeak;

    ScalePolicy(int min, int max, int prefetch, Duration coolDown) {
        this.min = min;
        this.max = max;
        this.prefetch = prefetch;
        this.coolDown = coolDown;
    }

    /** The group's target after this sample: the workers all {@code members} supervisors should run together. */
    int decide(Instant now, boolean deliverable, Depth depth, int members) {
        int floor = min * members;
        int ceiling = max * members;
        long batches = (depth.ready() + depth.leased() + prefetch - 1) / prefetch;
        int demand = (int) Math.min(ceiling, batches);
        target = target < 0 ? floor : Math.max(floor, Math.min(ceiling, target));
        if (demand > target) {
            lullSince = null;
            if (deliverable && !(target > 0 && drainsSoon(depth))) {
                target = demand;
            }
        } else if (demand < target) {
            if (lullSince == null) {
                lullSince = now;
                lullPeak = demand;
            } else {
                lullPeak = Math.max(lullPeak, demand);
            }
            if (!now.isBefore(lullSince.plus(coolDown))) {
                target = Math.max(floor, lullPeak);
                lullSince = null;
            }
        } else {
            lullSince = null;
        }
        return target;
    }

    private static boolean drainsSoon(Depth depth) {
        return depth.drainSeconds() != null && depth.drainSeconds() <= WORTH_A_WORKER.toSeconds();
    }
}
