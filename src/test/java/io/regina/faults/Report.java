package io.regina.faults;

import java.util.List;

/**
 * What the {@link Checker} found in one history. Duplicates are allowed (a lease that expired gives
 * its messages to the next consumer); everything else listed here is a broken promise.
 *
 * @param acknowledged     distinct transaction ids whose push was answered {@code queued}/{@code duplicate}
 * @param lost             acknowledged pushes some group never received, as {@code group/transactionId}
 * @param duplicated       (group, message) pairs delivered more than once
 * @param doubleLeased     messages delivered to two consumers whose leases were both certainly valid
 * @param reordered        messages delivered before one that was certainly pushed earlier on their partition
 * @param ackedReturned    messages delivered again after an acknowledgement the broker confirmed
 * @param phantoms         deliveries of a message never pushed, or only refused
 * @param divergent        nodes whose applied index or sizes differ from the first node's
 * @param longestWriteGapMs the longest time between two acknowledged pushes
 * @param longestWriteGapFromMs when that gap began, in {@link History#now()} time
 */
public record Report(int acknowledged, List<String> lost, int duplicated, List<String> doubleLeased,
        List<String> reordered, List<String> ackedReturned, List<String> phantoms, List<String> divergent,
        long longestWriteGapMs, long longestWriteGapFromMs) {

    public Report {
        lost = List.copyOf(lost);
        doubleLeased = List.copyOf(doubleLeased);
        reordered = List.copyOf(reordered);
        ackedReturned = List.copyOf(ackedReturned);
        phantoms = List.copyOf(phantoms);
        divergent = List.copyOf(divergent);
    }

    public boolean clean() {
        return lost.isEmpty() && doubleLeased.isEmpty() && reordered.isEmpty() && ackedReturned.isEmpty()
                && phantoms.isEmpty() && divergent.isEmpty();
    }

    /** One line for the lane's output and the report: the figures the issue asks for. */
    public String summary() {
        return "acknowledged=" + acknowledged + " lost=" + lost.size() + " duplicated=" + duplicated
                + " doubleLeased=" + doubleLeased.size() + " reordered=" + reordered.size()
                + " ackedReturned=" + ackedReturned.size() + " phantoms=" + phantoms.size()
                + " divergent=" + divergent.size() + " longestWriteGapMs=" + longestWriteGapMs
                + " (from " + longestWriteGapFromMs + " ms)";
    }

    /** Fails with the summary and the first offenders of every kind. */
    public void assertClean() {
        if (!clean()) {
            throw new AssertionError("the history breaks the broker's promises: " + summary()
                    + "\n lost " + first(lost) + "\n double-leased " + first(doubleLeased)
                    + "\n reordered " + first(reordered) + "\n acked then returned " + first(ackedReturned)
                    + "\n phantoms " + first(phantoms) + "\n divergent " + first(divergent));
        }
    }

    private static List<String> first(List<String> items) {
        return items.subList(0, Math.min(10, items.size()));
    }
}
