package io.regina.worker.supervisor;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Which worker slots a supervisor wants filled for a desired count. A wanted slot gets a worker (again,
 * after one dies); an unwanted one's worker is asked to stop and is not replaced. Growing takes the lowest
 * empty slots first. Shrinking gives up empty slots first (a restart that need not happen), then workers
 * already going, then idle ones, the highest first; never a worker that holds jobs: a scale-down must not
 * interrupt a job, so a busy worker goes only once it is idle, at a later tick.
 */
final class SlotPlan {
    /** What a slot holds now, in the order a shrink gives them up. */
    enum Occupant {
        /** No worker process. */
        EMPTY,
        /** A worker that is stopping or being replaced. */
        LEAVING,
        /** A worker holding no lease. */
        IDLE,
        /** A worker holding leases, or running a job. */
        BUSY
    }

    private SlotPlan() {
    }

    /** The wanted flags after moving {@code wanted} toward {@code desired} slots. */
    static boolean[] resize(boolean[] wanted, Occupant[] occupants, int desired) {
        boolean[] next = wanted.clone();
        int count = (int) IntStream.range(0, next.length).filter(i -> next[i]).count();
        if (count < desired) {
            Integer[] order = IntStream.range(0, next.length).filter(i -> !next[i]).boxed()
                    .sorted(Comparator.comparing((Integer i) -> occupants[i] != Occupant.EMPTY)
                            .thenComparing(i -> i))
                    .toArray(Integer[]::new);
            for (int k = 0; k < order.length && count < desired; k++, count++) {
                next[order[k]] = true;
            }
        } else if (count > desired) {
            Integer[] order = IntStream.range(0, next.length).filter(i -> next[i] && occupants[i] != Occupant.BUSY)
                    .boxed().sorted(Comparator.comparing((Integer i) -> occupants[i])
                            .thenComparing(Comparator.reverseOrder()))
                    .toArray(Integer[]::new);
            for (int k = 0; k < order.length && count > desired; k++, count--) {
                next[order[k]] = false;
            }
        }
        return next;
    }

    /** The first {@code n} of {@code size} slots wanted: a supervisor's start. */
    static boolean[] first(int n, int size) {
        boolean[] wanted = new boolean[size];
        Arrays.fill(wanted, 0, n, true);
        return wanted;
    }
}
