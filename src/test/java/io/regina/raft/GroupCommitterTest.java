package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.regina.queue.Command;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.testing.Eventually;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The batching logic alone, with a hand-driven sender standing in for Raft. */
class GroupCommitterTest {

    final List<List<Command>> sent = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<List<Result>>> replies = new CopyOnWriteArrayList<>();
    final RaftMetrics metrics = new RaftMetrics();

    final AtomicLong clock = new AtomicLong(1_000_000_000L);

    GroupCommitter committer(GroupCommitter.Limits limits) {
        return new GroupCommitter(request -> {
            sent.add(EntryCodec.decodeRequest(ByteBuffer.wrap(request)));
            CompletableFuture<List<Result>> reply = new CompletableFuture<>();
            replies.add(reply);
            return reply;
        }, metrics, limits, clock::get);
    }

    static GroupCommitter.Limits limits(int maxInflight, int overlapBelowCommands, int maxCommands, int maxEntryBytes,
            int maxCommandBytes) {
        return new GroupCommitter.Limits(maxInflight, overlapBelowCommands, 2.0, maxCommands, maxEntryBytes,
                maxCommandBytes);
    }

    void advanceMillis(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Answers entry {@code i} with one Cleared result per command, naming the command's queue. */
    void answer(int i) {
        List<Result> results = new ArrayList<>();
        for (Command c : sent.get(i)) {
            results.add(new Result.Cleared(((Command.ClearQueue) c).queue(), i));
        }
        replies.get(i).complete(results);
    }

    /** Waits until {@code entries} entries are sent: after a reply, the next goes out from the answering thread. */
    void awaitSent(int entries) {
        Eventually.await(Duration.ofSeconds(10), entries + " entries sent", () -> sent.size() == entries);
    }

    /** Submits two commands to an idle committer: each goes out at once in its own entry; then answers both. */
    void assertTwoSmallEntriesOverlap(GroupCommitter committer) {
        int before = sent.size();
        committer.submit(new Command.ClearQueue("a"));
        committer.submit(new Command.ClearQueue("b"));
        assertThat(sent).hasSize(before + 2);
        answer(before);
        answer(before + 1);
        assertThat(committer.inflightEntries()).isZero();
    }

    /** Each future completed with the Cleared result of queue "w" + its index. */
    static void assertClearedInOrder(List<CompletableFuture<Result>> waiting) throws Exception {
        for (int i = 0; i < waiting.size(); i++) {
            assertThat(((Result.Cleared) waiting.get(i).get(10, TimeUnit.SECONDS)).queue()).isEqualTo("w" + i);
        }
    }

    @Test
    void queuesWhileEntriesAreInFlightThenSendsEverythingInOneEntry() throws Exception {
        GroupCommitter committer = committer(limits(2, Integer.MAX_VALUE, 4096, 1 << 20, 1 << 20));
        List<CompletableFuture<Result>> futures = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            futures.add(committer.submit(new Command.ClearQueue("q" + i)));
        }
        // two entries of one command each are in flight; the other eight wait
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).hasSize(1);
        assertThat(sent.get(1)).hasSize(1);
        assertThat(committer.queuedCommands()).isEqualTo(8);

        answer(0);
        awaitSent(3);
        assertThat(sent.get(2)).hasSize(8);
        answer(1);
        answer(2);
        for (int i = 0; i < 10; i++) {
            Result r = futures.get(i).get(10, TimeUnit.SECONDS);
            assertThat(((Result.Cleared) r).queue()).isEqualTo("q" + i);
        }
        assertThat(metrics.entriesSubmitted()).isEqualTo(3);
        assertThat(metrics.commandsSubmitted()).isEqualTo(10);
        assertThat(metrics.maxCommandsPerEntry()).isEqualTo(8);
        assertThat(committer.inflightEntries()).isZero();
    }

    @Test
    void aSecondEntryGoesBesideASmallOneButWaitsBehindALargeOne() throws Exception {
        GroupCommitter committer = committer(limits(2, 3, 4096, 1 << 20, 1 << 20));
        // a small entry in flight: the next command does not wait for it
        assertTwoSmallEntriesOverlap(committer);

        // an entry of three commands in flight: what comes meanwhile waits and travels as one entry
        committer.submitTogether(List.of(new Command.ClearQueue("c"), new Command.ClearQueue("d"),
                new Command.ClearQueue("e")));
        List<CompletableFuture<Result>> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiting.add(committer.submit(new Command.ClearQueue("w" + i)));
        }
        assertThat(sent).hasSize(3);
        assertThat(sent.get(2)).hasSize(3);
        assertThat(committer.queuedCommands()).isEqualTo(5);

        answer(2);
        awaitSent(4);
        assertThat(sent.get(3)).hasSize(5);
        answer(3);
        assertClearedInOrder(waiting);
    }

    @Test
    void aBusyLogSendsOneEntryAtATimeAndAnIdleOneOverlapsAgain() throws Exception {
        GroupCommitter committer = committer(GroupCommitter.Limits.defaults());
        // idle: a second small entry goes beside the first
        assertTwoSmallEntriesOverlap(committer);

        // entries back to back for 100 ms (five half-lives): the log reads busy
        for (int i = 0; i < 20; i++) {
            committer.submit(new Command.ClearQueue("busy" + i));
            advanceMillis(5);
            answer(sent.size() - 1);
        }
        awaitSent(22);
        assertThat(committer.occupancy()).isGreaterThan(0.9);
        committer.submit(new Command.ClearQueue("c"));
        List<CompletableFuture<Result>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(committer.submit(new Command.ClearQueue("w" + i)));
        }
        // a one-command entry is in flight, yet the next commands wait for it and travel together
        assertThat(sent).hasSize(23);
        assertThat(committer.queuedCommands()).isEqualTo(3);
        advanceMillis(1);
        answer(22);
        awaitSent(24);
        assertThat(sent.get(23)).hasSize(3);
        answer(23);
        assertClearedInOrder(waiting);

        // idle for 100 ms: small entries overlap again
        advanceMillis(100);
        assertThat(committer.occupancy()).isLessThan(0.1);
        committer.submit(new Command.ClearQueue("d"));
        committer.submit(new Command.ClearQueue("e"));
        assertThat(sent).hasSize(26);
        assertThat(committer.queuedCommands()).isZero();
    }

    @Test
    void respectsTheCommandAndByteCapsPerEntry() throws Exception {
        GroupCommitter committer = committer(limits(1, Integer.MAX_VALUE, 3, 1 << 20, 1 << 20));
        for (int i = 0; i < 8; i++) {
            committer.submit(new Command.ClearQueue("q" + i));
        }
        answer(0);
        awaitSent(2);
        assertThat(sent.get(1)).hasSize(3);
        answer(1);
        awaitSent(3);
        assertThat(sent.get(2)).hasSize(3);

        String big = "x".repeat(1000);
        GroupCommitter bytes = committer(limits(1, Integer.MAX_VALUE, 100, 2500, 1 << 20));
        sent.clear();
        replies.clear();
        for (int i = 0; i < 5; i++) {
            bytes.submit(new Command.ClearQueue(big));
        }
        answer(0);
        awaitSent(2);
        assertThat(sent.get(1)).hasSize(2); // 2 x ~1 KB fit in 2500 bytes, 3 do not
    }

    @Test
    void oversizedCommandsAreRefusedAndFailuresReachEveryCallerOfTheEntry() throws Exception {
        GroupCommitter committer = committer(limits(1, Integer.MAX_VALUE, 100, 1000, 500));
        assertThat(committer.submit(new Command.ClearQueue("y".repeat(600))).get())
                .isInstanceOfSatisfying(Result.Rejected.class, rejected -> {
                    assertThat(rejected.rejection()).isEqualTo(Rejection.TOO_LARGE);
                    assertThat(rejected.message()).contains("over the limit of 500 bytes per request");
                });

        CompletableFuture<Result> first = committer.submit(new Command.ClearQueue("a"));
        CompletableFuture<Result> second = committer.submit(new Command.ClearQueue("b"));
        CompletableFuture<Result> third = committer.submit(new Command.ClearQueue("c"));
        replies.get(0).completeExceptionally(new IOException("disk on fire"));
        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasMessageContaining("disk on fire");
        awaitSent(2);
        replies.get(1).completeExceptionally(new IOException("still burning"));
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasMessageContaining("still burning");
        assertThatThrownBy(() -> third.get(10, TimeUnit.SECONDS)).hasMessageContaining("still burning");
        assertThat(metrics.entriesFailed()).isEqualTo(2);
    }

    @Test
    void submissionsNotAnsweredInTimeFailWithATimeoutAndTheNextOnesGoOut() throws Exception {
        GroupCommitter committer = committer(limits(1, Integer.MAX_VALUE, 100, 1 << 20, 1 << 20));
        CompletableFuture<Result> stuck = committer.submit(new Command.ClearQueue("stuck"));
        CompletableFuture<Result> waiting = committer.submit(new Command.ClearQueue("waiting"));
        long submitted = clock.get();

        committer.expire(submitted + GroupCommitter.COMMIT_TIMEOUT.toNanos() / 2);
        assertThat(stuck).isNotDone();

        committer.expire(submitted + GroupCommitter.COMMIT_TIMEOUT.toNanos() + 1_000_000_000L);
        assertThatThrownBy(() -> stuck.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> waiting.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);

        CompletableFuture<Result> later = committer.submit(new Command.ClearQueue("later"));
        assertThat(sent).as("the stuck entry's slot is free again").hasSize(2);
        answer(0); // the stuck entry's late answer changes nothing
        answer(1);
        assertThat(((Result.Cleared) later.get(10, TimeUnit.SECONDS)).queue()).isEqualTo("later");
    }

    @Test
    void anEntryTheHeapCannotHoldIsRefusedAsAFullMemoryAndThePipelineGoesOn() throws Exception {
        List<byte[]> accepted = new CopyOnWriteArrayList<>();
        GroupCommitter committer = new GroupCommitter(request -> {
            if (accepted.isEmpty() && sent.isEmpty()) {
                sent.add(List.of());
                throw new OutOfMemoryError("Java heap space");
            }
            accepted.add(request);
            return CompletableFuture.completedFuture(List.of(new Result.Cleared("after", 0)));
        }, metrics, limits(1, Integer.MAX_VALUE, 100, 1 << 20, 1 << 20), clock::get);

        assertThat(committer.submit(new Command.ClearQueue("big")).get(10, TimeUnit.SECONDS))
                .isInstanceOfSatisfying(Result.Rejected.class, rejected -> {
                    assertThat(rejected.rejection()).isEqualTo(Rejection.MEMORY_FULL);
                    assertThat(rejected.message()).contains("memory is full");
                });
        assertThat(committer.inflightEntries()).as("the refused entry left the pipeline").isZero();
        assertThat(committer.submit(new Command.ClearQueue("after")).get(10, TimeUnit.SECONDS))
                .isInstanceOf(Result.Cleared.class);
        assertThat(accepted).hasSize(1);
    }

    @Test
    void aWrongNumberOfResultsFailsTheEntry() throws Exception {
        GroupCommitter committer = committer(GroupCommitter.Limits.defaults());
        CompletableFuture<Result> f = committer.submit(new Command.Tick());
        replies.get(0).complete(List.of());
        assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasMessageContaining("answered 0 results");
    }

    @Test
    void callersAreCompletedOnTheThreadThatAnswersTheEntryWithoutAHandOff() throws Exception {
        GroupCommitter committer = committer(GroupCommitter.Limits.defaults());
        CompletableFuture<String> thread = committer.submit(new Command.ClearQueue("q"))
                .thenApply(r -> Thread.currentThread().getName());
        Thread answering = new Thread(() -> answer(0), "ratis-updater");
        answering.start();
        answering.join();
        assertThat(thread.get(10, TimeUnit.SECONDS)).isEqualTo("ratis-updater");
    }

    @Test
    void closeFailsQueuedAndInFlightCommands() {
        GroupCommitter committer = committer(limits(1, Integer.MAX_VALUE, 100, 1 << 20, 1 << 20));
        CompletableFuture<Result> inflight = committer.submit(new Command.Tick());
        CompletableFuture<Result> queued = committer.submit(new Command.Tick());
        committer.close();
        assertThat(inflight).isCompletedExceptionally();
        assertThat(queued).isCompletedExceptionally();
        assertThat(committer.submit(new Command.Tick())).isCompletedExceptionally();
    }
}
