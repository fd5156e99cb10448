package io.regina.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A node's Ratis log segments on disk, under {@code <data-dir>/raft/<group>/current}: closed
 * {@code log_<first>-<last>} and the open {@code log_inprogress_<first>}.
 */
final class LogSegments {

    private static final String OPEN = "log_inprogress_";
    private static final String CLOSED = "log_";

    private LogSegments() {
    }

    /** The open segment that starts last: the one a crash cuts. */
    static Path newestOpen(Path dataDir) throws IOException {
        return segments(dataDir).stream().filter(p -> name(p).startsWith(OPEN))
                .max(Comparator.comparingLong(LogSegments::firstIndexOf))
                .orElseThrow(() -> new IllegalStateException("no " + OPEN + "* under " + dataDir));
    }

    /** The first index still in the log: past it, a purge removed the entries before. */
    static long firstIndex(Path dataDir) throws IOException {
        return segments(dataDir).stream().mapToLong(LogSegments::firstIndexOf).min()
                .orElseThrow(() -> new IllegalStateException("no log segment under " + dataDir));
    }

    private static List<Path> segments(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.walk(dataDir.resolve("raft"))) {
            return files.filter(p -> name(p).startsWith(CLOSED) && Files.isRegularFile(p)).toList();
        }
    }

    static long firstIndexOf(Path segment) {
        String name = name(segment);
        String first = name.startsWith(OPEN) ? name.substring(OPEN.length())
                : name.substring(CLOSED.length(), name.indexOf('-'));
        return Long.parseLong(first);
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }
}
