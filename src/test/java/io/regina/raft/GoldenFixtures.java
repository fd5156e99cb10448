package io.regina.raft;

import io.regina.queue.AckStatus;
import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.QueueOptions;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Utf8Text;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the golden codec fixtures that {@link CodecGoldenTest} decodes forever, with the code as it
 * is when run: {@code mvn -o test -Dtest=GoldenFixtures -Dcodec.regenerate=true}.
 *
 * <p>Files go to {@code src/test/resources/codec/log/v<entry version>/} and
 * {@code .../codec/snapshot/v<snapshot version>/}; a file that exists is never rewritten,
 * so running this after adding an op writes only the new op's fixtures, and after a version bump
 * writes a new directory beside the old ones. Each {@code .bin} has a {@code .txt} beside it holding
 * the decoded value's {@code toString()}. The samples below are only the inputs of the generator:
 * editing them changes nothing already frozen.
 */
class GoldenFixtures {

    /** Fixtures of the log formats (request, entry, reply) of {@link EntryCodec#VERSION}. */
    static final String LOG_FIXTURES = "codec/log/v" + EntryCodec.VERSION;
    /** The snapshot fixture of {@link SnapshotCodec#VERSION}. */
    static final String SNAPSHOT_FIXTURES = "codec/snapshot/v" + SnapshotCodec.VERSION;
    static final String SNAPSHOT = "broker-state";
    static final long ENTRY_NOW = 1_700_000_000_123L;
    static final long T0 = 1_700_000_000_000L;
    static final String UNICODE = "ünïcødé ✓ 日本語 \uD83D\uDE80";

    static final long SNAPSHOT_TERM = 3;
    static final long SNAPSHOT_INDEX = 1_234;

    /** Every option away from its default, so a swapped field shows. */
    static final QueueOptions OPTIONS = new QueueOptions(30, 1000, 3600, 5, 250, true, false, 3, 10, 20, 86400,
            60, true, false, 15, 8);

    static final Command.PushItem ITEM = new Command.PushItem("orders", "eu", "0190c3f4-0000-7000-8000-000000000001",
            "tx-1", Utf8Text.of("{\"sku\":\"" + UNICODE + "\",\"n\":1}"), "trace-1", "producer-1", 1500, T0 + 60_000);
    static final Command.PushItem NULL_ITEM = new Command.PushItem(null, null, null, null, null, null, null, 0, 0);
    static final Command.AckItem ACK = new Command.AckItem("tx-1", "partition-id-1", AckStatus.FAILED, "boom",
            "workers", "lease-1", 2_000);
    static final Command.AckItem NULL_ACK = new Command.AckItem(null, null, null, null, null, null, 0);

    /** The samples of each command op by fixture name: {@code <op>} has every field set, {@code <op>-nulls} the rest. */
    static Map<String, List<Command>> commandSamples() {
        Map<String, List<Command>> s = new LinkedHashMap<>();
        s.put("configure", List.of(new Command.Configure("orders", "shop", "fulfil", OPTIONS)));
        s.put("configure-nulls", List.of(new Command.Configure("orders", null, null, null)));
        s.put("delete-queue", List.of(new Command.DeleteQueue("orders")));
        s.put("delete-queue-nulls", List.of(new Command.DeleteQueue(null)));
        s.put("push", List.of(new Command.Push(List.of(ITEM, new Command.PushItem("emails", "us", "m-2", "tx-2",
                Utf8Text.of("null"), "trace-2", "producer-2", 0, 0)))));
        s.put("push-nulls", List.of(new Command.Push(Arrays.asList(NULL_ITEM, null)), new Command.Push(List.of()),
                new Command.Push(null)));
        List<Command> pops = new ArrayList<>();
        for (SubscriptionMode mode : SubscriptionMode.values()) {
            pops.add(new Command.Pop("orders", "eu", "workers", 10, "lease-" + mode, true, mode, T0, 4));
        }
        s.put("pop", pops);
        s.put("pop-nulls", List.of(new Command.Pop("orders", null, null, 1, null, false, null, 0, 1)));
        List<Command.AckItem> acks = new ArrayList<>();
        for (AckStatus status : AckStatus.values()) {
            acks.add(new Command.AckItem("tx-" + status, "partition-id-1", status, "error " + status, "workers",
                    "lease-1", 1_000 + status.ordinal()));
        }
        s.put("ack", List.of(new Command.Ack(acks)));
        s.put("ack-nulls", List.of(new Command.Ack(Arrays.asList(NULL_ACK, null)), new Command.Ack(List.of()),
                new Command.Ack(null)));
        s.put("transaction", List.of(new Command.Transaction(List.of(new Command.TxPush(List.of(ITEM)),
                new Command.TxAck(ACK)), List.of("lease-1", "lease-2"))));
        s.put("transaction-nulls", List.of(new Command.Transaction(Arrays.asList(new Command.TxPush(null),
                new Command.TxAck(null), new Command.TxPush(Arrays.asList(NULL_ITEM, null)), null), List.of()),
                new Command.Transaction(null, null)));
        s.put("extend-lease", List.of(new Command.ExtendLease("lease-1", 60)));
        s.put("extend-lease-nulls", List.of(new Command.ExtendLease(null, -1)));
        s.put("record-trace", List.of(new Command.RecordTrace("trace-1", "tx-1", "partition-id-1", "workers",
                List.of("checkout", UNICODE), "info", "{\"step\":2}")));
        s.put("record-trace-nulls", List.of(new Command.RecordTrace(null, null, null, null,
                Arrays.asList("a", null), null, null), new Command.RecordTrace(null, null, null, null, null, null,
                null)));
        s.put("delete-group", List.of(new Command.DeleteGroup("workers", "orders")));
        s.put("delete-group-nulls", List.of(new Command.DeleteGroup("workers", null)));
        s.put("seek", List.of(new Command.Seek("workers", "orders", T0, false),
                new Command.Seek("workers", "orders", 0, true)));
        s.put("seek-nulls", List.of(new Command.Seek(null, null, 0, false)));
        s.put("set-subscription", List.of(new Command.SetSubscription("workers", T0)));
        s.put("set-subscription-nulls", List.of(new Command.SetSubscription(null, 0)));
        s.put("set-maintenance", List.of(new Command.SetMaintenance(true, false),
                new Command.SetMaintenance(false, true)));
        s.put("tick", List.of(new Command.Tick()));
        s.put("pause-queue", List.of(new Command.PauseQueue("orders", true)));
        s.put("pause-queue-nulls", List.of(new Command.PauseQueue(null, false)));
        s.put("clear-queue", List.of(new Command.ClearQueue("orders")));
        s.put("clear-queue-nulls", List.of(new Command.ClearQueue(null)));
        s.put("retry-failed-jobs", List.of(
                new Command.RetryFailedJobs(new FailedJobSelector.Ids(List.of("uuid-1", "uuid-2")), 100),
                new Command.RetryFailedJobs(new FailedJobSelector.All(), 1000),
                new Command.RetryFailedJobs(new FailedJobSelector.Filter("orders", "timeout", T0, T0 + 1), 50)));
        s.put("retry-failed-jobs-nulls", List.of(new Command.RetryFailedJobs(null, 5),
                new Command.RetryFailedJobs(new FailedJobSelector.Ids(null), 5),
                new Command.RetryFailedJobs(new FailedJobSelector.Ids(List.of()), 5),
                new Command.RetryFailedJobs(new FailedJobSelector.Filter(null, null, 0, 0), 5)));
        s.put("retry-failed-job", List.of(new Command.RetryFailedJob("uuid-1", "{\"edited\":true}")));
        s.put("retry-failed-job-nulls", List.of(new Command.RetryFailedJob("uuid-1", null)));
        s.put("forget-failed-job", List.of(new Command.ForgetFailedJob("uuid-1")));
        s.put("forget-failed-job-nulls", List.of(new Command.ForgetFailedJob(null)));
        s.put("remove-failed-jobs", List.of(new Command.RemoveFailedJobs(24, "orders", true, 10_000)));
        s.put("remove-failed-jobs-nulls", List.of(new Command.RemoveFailedJobs(0, null, false)));
        List<Command> batch = new ArrayList<>();
        s.values().forEach(list -> batch.add(list.get(0)));
        s.put("batch", batch);
        // Added after the batch above was frozen: a sample put before it would not be in its fixture.
        Command.Pop pop = new Command.Pop("orders", "eu", "workers", 10, "lease-2", false, SubscriptionMode.FROM, T0, 4);
        s.put("ack-and-pop", List.of(new Command.AckAndPop(List.of(ACK), pop, 120),
                new Command.AckAndPop(List.of(), pop, 0)));
        s.put("ack-and-pop-nulls", List.of(new Command.AckAndPop(Arrays.asList(NULL_ACK, null),
                new Command.Pop(null, null, null, 0, null, false, null, 0, 0), 0), new Command.AckAndPop(null, null, 0)));
        s.put("retry-failed-jobs-search", List.of(new Command.RetryFailedJobs(
                new FailedJobSelector.Search("orders", "PaymentGatewayTimeout " + UNICODE, T0, T0 + 1), 50)));
        s.put("retry-failed-jobs-search-nulls", List.of(new Command.RetryFailedJobs(
                new FailedJobSelector.Search(null, null, 0, 0), 0)));
        s.put("disk-alarm", List.of(new Command.DiskAlarm("n2", true), new Command.DiskAlarm("n2", false)));
        s.put("disk-alarm-nulls", List.of(new Command.DiskAlarm(null, false)));
        return s;
    }

    /** The samples of each result op by fixture name, as {@link #commandSamples()}. */
    static Map<String, List<Result>> resultSamples() {
        Map<String, List<Result>> s = new LinkedHashMap<>();
        List<Result> rejected = new ArrayList<>();
        for (Rejection rejection : Rejection.values()) {
            rejected.add(new Result.Rejected(rejection, "because " + rejection + " " + UNICODE));
        }
        s.put("rejected", rejected);
        s.put("rejected-nulls", List.of(new Result.Rejected(null, null)));
        s.put("configured", List.of(new Result.Configured("queue-id-1", "partition-id-1", "orders", "shop", "fulfil",
                OPTIONS)));
        s.put("configured-nulls", List.of(new Result.Configured(null, null, null, null, null, null)));
        s.put("queue-deleted", List.of(new Result.QueueDeleted("orders", true)));
        s.put("queue-deleted-nulls", List.of(new Result.QueueDeleted(null, false)));
        List<Result.PushOutcome> pushed = new ArrayList<>();
        for (Result.PushStatus status : Result.PushStatus.values()) {
            pushed.add(new Result.PushOutcome(status.ordinal(), "tx-" + status, status, "m-" + status,
                    "partition-id-1", "trace-1", "orders"));
        }
        s.put("pushed", List.of(new Result.Pushed(pushed)));
        s.put("pushed-nulls", List.of(new Result.Pushed(Arrays.asList(
                new Result.PushOutcome(7, null, null, null, null, null, null), null)), new Result.Pushed(List.of()),
                new Result.Pushed(null)));
        s.put("popped", List.of(new Result.Popped("orders", "eu", "partition-id-1", "lease-1", "workers", List.of(
                new Result.Delivery("m-1", "tx-1", "trace-1", "{\"n\":1}", "producer-1", T0, "partition-id-1", "eu",
                        "lease-1", "workers", 1),
                new Result.Delivery("m-2", "tx-2", "trace-2", UNICODE, "producer-2", T0 + 1, "partition-id-1", "eu",
                        "lease-1", "workers", 3)), 2)));
        s.put("popped-nulls", List.of(Result.Popped.empty("orders", "workers"),
                new Result.Popped(null, null, null, null, null, Arrays.asList(
                        new Result.Delivery(null, null, null, null, null, 0, null, null, null, null, 0), null), 0),
                new Result.Popped(null, null, null, null, null, null, 0)));
        s.put("acked", List.of(new Result.Acked(List.of(
                new Result.AckOutcome(0, "tx-1", true, null, "orders", "eu", true, false),
                new Result.AckOutcome(1, "tx-2", false, "lease expired", "orders", "eu", false, true)))));
        s.put("acked-nulls", List.of(new Result.Acked(Arrays.asList(
                new Result.AckOutcome(0, null, false, null, null, null, false, false), null)),
                new Result.Acked(List.of()), new Result.Acked(null)));
        s.put("transaction-done", List.of(new Result.TransactionDone(true, "none", List.of(
                new Result.TxOutcome(0, "push", true, "tx-1", "m-1", "partition-id-1", "orders", null, false),
                new Result.TxOutcome(1, "ack", false, "tx-2", null, "partition-id-1", "orders", "bad", true)))));
        s.put("transaction-done-nulls", List.of(new Result.TransactionDone(false, null, Arrays.asList(
                new Result.TxOutcome(0, null, false, null, null, null, null, null, false), null)),
                new Result.TransactionDone(false, null, null)));
        s.put("lease-extended", List.of(new Result.LeaseExtended("lease-1", true, "none", T0 + 60_000)));
        s.put("lease-extended-nulls", List.of(new Result.LeaseExtended(null, false, null, 0)));
        s.put("trace-recorded", List.of(new Result.TraceRecorded("trace-1")));
        s.put("trace-recorded-nulls", List.of(new Result.TraceRecorded(null)));
        s.put("group-deleted", List.of(new Result.GroupDeleted("workers", "orders", 3, true)));
        s.put("group-deleted-nulls", List.of(new Result.GroupDeleted(null, null, 0, false)));
        s.put("sought", List.of(new Result.Sought("workers", "orders", true, T0, 7)));
        s.put("sought-nulls", List.of(new Result.Sought(null, null, false, 0, 0)));
        s.put("subscription-set", List.of(new Result.SubscriptionSet("workers", T0, 2)));
        s.put("subscription-set-nulls", List.of(new Result.SubscriptionSet(null, 0, 0)));
        s.put("maintenance", List.of(new Result.Maintenance(true, false, 12)));
        s.put("ticked", List.of(new Result.Ticked(1, 2, 3)));
        s.put("queue-paused", List.of(new Result.QueuePaused("orders", true)));
        s.put("queue-paused-nulls", List.of(new Result.QueuePaused(null, false)));
        s.put("cleared", List.of(new Result.Cleared("orders", 10_000_000_000L)));
        s.put("cleared-nulls", List.of(new Result.Cleared(null, 0)));
        s.put("failed-jobs-retried", List.of(new Result.FailedJobsRetried(2, List.of("uuid-3"), 40)));
        s.put("failed-jobs-retried-nulls", List.of(new Result.FailedJobsRetried(0, null, 0),
                new Result.FailedJobsRetried(0, List.of(), 0)));
        s.put("failed-jobs-removed", List.of(new Result.FailedJobsRemoved(10_000, true)));
        List<Result> batch = new ArrayList<>();
        s.values().forEach(list -> batch.add(list.get(0)));
        batch.add(null);
        s.put("batch", batch);
        // Added after the batch above was frozen, as for the commands.
        Result.Popped popped = (Result.Popped) s.get("popped").get(0);
        Result.Acked acked = (Result.Acked) s.get("acked").get(0);
        s.put("acked-and-popped", List.of(new Result.AckedAndPopped(acked, popped),
                new Result.AckedAndPopped(new Result.Acked(List.of()), Result.Popped.empty("orders", "workers"))));
        s.put("acked-and-popped-nulls", List.of(new Result.AckedAndPopped(null, null)));
        s.put("disk-alarms", List.of(new Result.DiskAlarms(List.of("n1", "n3")), new Result.DiskAlarms(List.of())));
        return s;
    }

    /** The fixture name of an op: its enum name in lower case with dashes. */
    static String fixtureName(Enum<?> op) {
        return op.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * A broker whose snapshot has every section of the state image filled: buffered pushes, group
     * subscriptions, traces, queues with options, partitions, messages, delayed messages, groups with
     * cursors, ready sets and re-checks, leases with claims, and failed jobs.
     */
    static BrokerState snapshotState() {
        BrokerState state = new BrokerState();
        long[] now = {T0};
        java.util.function.Function<Command, Result> apply = command -> state.apply(command, now[0] += 1_000);
        QueueOptions orders = new QueueOptions(30, 1000, 3600, 2, 0, true, false, 0, 0, 0, 0, 0, false, false, 0, 1);
        apply.apply(new Command.Configure("orders", "shop", "fulfil", orders));
        QueueOptions windowed = new QueueOptions(60, 0, 3600, 3, 1000, false, false, 0, 0, 30, 0, 0, false, false, 0, 2);
        apply.apply(new Command.Configure("emails", null, null, windowed));
        List<Command.PushItem> items = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            items.add(new Command.PushItem("orders", "eu", "0190c3f4-0000-7000-8000-00000000000" + i, "tx-" + i,
                    Utf8Text.of("{\"n\":" + i + ",\"text\":\"" + UNICODE + "\"}"), "trace-" + i, "producer-1", 0, 0));
        }
        items.add(new Command.PushItem("orders", "us", "0190c3f4-0000-7000-8000-000000000005", "tx-5",
                Utf8Text.of("null"),
                null, null, 0, 0));
        items.add(new Command.PushItem("orders", "eu", "0190c3f4-0000-7000-8000-000000000006", "tx-6",
                Utf8Text.of("{\"delayed\":true}"), null, "producer-2", 3_600_000, 0));
        items.add(new Command.PushItem("emails", null, "0190c3f4-0000-7000-8000-000000000007", "tx-7",
                Utf8Text.of("{\"to\":\"a@example.com\"}"), null, null, 0, 0));
        items.add(new Command.PushItem("reports", null, "0190c3f4-0000-7000-8000-000000000008", "tx-8",
                Utf8Text.of("{\"report\":1}"), null, null, 0, 0));
        Result.Pushed pushed = (Result.Pushed) apply.apply(new Command.Push(items));
        String eu = pushed.outcomes().get(0).partitionId();
        apply.apply(new Command.PauseQueue("reports", true));
        apply.apply(new Command.RecordTrace("trace-1", "tx-1", eu, "workers", List.of("checkout", UNICODE), "info",
                "{\"step\":1}"));
        apply.apply(new Command.SetSubscription("latecomers", T0 + 5_000));
        // workers hold lease-w1 over tx-1..tx-3, dead-letter tx-1 and release tx-3 for later
        apply.apply(new Command.Pop("orders", "eu", "workers", 3, "lease-w1", false, SubscriptionMode.ALL, 0, 1));
        apply.apply(new Command.Ack(List.of(
                new Command.AckItem("tx-1", eu, AckStatus.DLQ, "bad input", "workers", "lease-w1", 0),
                new Command.AckItem("tx-3", eu, AckStatus.FAILED, "retry later", "workers", "lease-w1", 600_000))));
        // audit consumes tx-2 ahead of tx-1, which it still holds under lease-a1
        apply.apply(new Command.Pop("orders", "eu", "audit", 2, "lease-a1", false, SubscriptionMode.ALL, 0, 1));
        apply.apply(new Command.Ack(List.of(
                new Command.AckItem("tx-2", eu, AckStatus.COMPLETED, null, "audit", "lease-a1", 0))));
        // audit hands tx-5 back once: a batch retry counted on its cursor
        apply.apply(new Command.Pop("orders", "us", "audit", 1, "lease-a2", false, SubscriptionMode.ALL, 0, 1));
        apply.apply(new Command.Ack(List.of(new Command.AckItem("tx-5", pushed.outcomes().get(4).partitionId(),
                AckStatus.FAILED, "flaky", "audit", "lease-a2", 0))));
        // the window buffer holds emails back: a cursor waiting on a re-check
        apply.apply(new Command.Pop("emails", null, "workers", 10, "lease-e1", false, SubscriptionMode.ALL, 0, 1));
        apply.apply(new Command.SetMaintenance(false, true));
        apply.apply(new Command.Push(List.of(new Command.PushItem("orders", "eu",
                "0190c3f4-0000-7000-8000-000000000009", "tx-9", Utf8Text.of("{\"buffered\":true}"), null, null, 0, 0))));
        return state;
    }

    /**
     * What is asked of a loaded snapshot to show what it holds: every answer is part of the
     * expected value, so a state that reads back different answers differently. Frozen with the
     * fixture: do not edit, add a new fixture instead.
     */
    static List<Command> snapshotProbes() {
        List<Command> probes = new ArrayList<>();
        probes.add(new Command.ExtendLease("lease-w1", 45));
        probes.add(new Command.ExtendLease("lease-a1", 45));
        probes.add(new Command.ExtendLease("lease-a2", 45));
        probes.add(new Command.Seek("latecomers", "orders", 0, false));
        for (String queue : List.of("orders", "emails", "reports")) {
            for (String group : List.of("workers", "audit", "latecomers")) {
                probes.add(probePop(queue, group, probes.size()));
            }
        }
        probes.add(new Command.Tick());
        probes.add(new Command.SetMaintenance(false, false));
        probes.add(new Command.RetryFailedJobs(new FailedJobSelector.All(), 100));
        probes.add(new Command.PauseQueue("reports", false));
        probes.add(new Command.ClearQueue("emails"));
        for (String queue : List.of("orders", "reports")) {
            for (String group : List.of("workers", "audit", "latecomers")) {
                probes.add(probePop(queue, group, probes.size()));
            }
        }
        return probes;
    }

    private static Command probePop(String queue, String group, int n) {
        return new Command.Pop(queue, null, group, 100, "probe-" + n, true, SubscriptionMode.ALL, 0, 100);
    }

    /** The answers of {@link #snapshotProbes()} one a line; the first probes apply at {@code start}, a day apart. */
    static String probe(BrokerState state, long start) {
        StringBuilder text = new StringBuilder();
        long now = start;
        for (Command probe : snapshotProbes()) {
            if (probe instanceof Command.Tick) {
                now += 86_400_000L;
            }
            text.append(probe).append(" -> ").append(state.apply(probe, now)).append('\n');
        }
        text.append("traces -> ").append(state.view().traces(null, 100)).append('\n');
        return text.toString();
    }

    @Test
    @EnabledIfSystemProperty(named = "codec.regenerate", matches = "true")
    void regenerate() throws IOException {
        Path root = Path.of("src/test/resources").resolve(LOG_FIXTURES);
        for (Map.Entry<String, List<Command>> sample : commandSamples().entrySet()) {
            List<Command> commands = sample.getValue();
            byte[] request = EntryCodec.encodeRequestOf(commands);
            check(EntryCodec.decodeRequest(ByteBuffer.wrap(request)), commands);
            write(root.resolve("request"), sample.getKey(), request, commands.toString());
            EntryCodec.Entry entry = new EntryCodec.Entry(ENTRY_NOW, commands);
            byte[] bytes = EntryCodec.encodeEntry(ENTRY_NOW, commands);
            check(EntryCodec.decodeEntry(ByteBuffer.wrap(bytes)), entry);
            write(root.resolve("entry"), sample.getKey(), bytes, entry.toString());
        }
        for (Map.Entry<String, List<Result>> sample : resultSamples().entrySet()) {
            byte[] reply = EntryCodec.encodeResults(sample.getValue());
            check(EntryCodec.decodeResults(ByteBuffer.wrap(reply)), sample.getValue());
            write(root.resolve("reply"), sample.getKey(), reply, sample.getValue().toString());
        }
        Path snapshots = Path.of("src/test/resources").resolve(SNAPSHOT_FIXTURES);
        if (!Files.exists(snapshots.resolve(SNAPSHOT + ".bin"))) {
            BrokerState state = snapshotState();
            long lastNow = state.view().lastAppliedTime();
            SnapshotCodec.write(snapshots.resolve(SNAPSHOT + ".bin"), SNAPSHOT_TERM, SNAPSHOT_INDEX, lastNow,
                    state::writeTo);
            Files.writeString(snapshots.resolve(SNAPSHOT + ".txt"), snapshotHeader(SNAPSHOT_TERM, SNAPSHOT_INDEX,
                    lastNow) + probe(state, lastNow), StandardCharsets.UTF_8);
        }
    }

    static String snapshotHeader(long term, long index, long lastNow) {
        return "term " + term + ", index " + index + ", lastNow " + lastNow + "\n";
    }

    private static void check(Object decoded, Object expected) {
        if (!decoded.equals(expected)) {
            throw new IllegalStateException("round trip changed " + expected + " into " + decoded);
        }
    }

    private static void write(Path dir, String name, byte[] bytes, String text) throws IOException {
        Path bin = dir.resolve(name + ".bin");
        if (Files.exists(bin)) {
            return;
        }
        Files.createDirectories(dir);
        Files.write(bin, bytes);
        Files.writeString(dir.resolve(name + ".txt"), text + "\n", StandardCharsets.UTF_8);
    }
}
