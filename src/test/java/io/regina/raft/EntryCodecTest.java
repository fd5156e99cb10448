package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.QueueOptions;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Utf8Text;

import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class EntryCodecTest {

    static final String UNICODE = "ünïcødé ✓ 日本語 \uD83D\uDE80 \u0000 end";
    static final String BIG = "x".repeat(200_000) + UNICODE; // beyond writeUTF's 64 KB

    static final QueueOptions OPTIONS = new QueueOptions(30, 1000, 3600, 5, 250, true, false, 3, 10, 20, 86400,
            60, true, false, 15, 8);

    static Command.PushItem item(String suffix) {
        return new Command.PushItem("q" + suffix, "p", "m-" + suffix, "tx-" + suffix,
                Utf8Text.of("{\"a\":" + suffix + "}"),
                "trace", "sub", 1500, 1_700_000_000_000L);
    }

    static final Command.PushItem NULL_ITEM = new Command.PushItem(null, null, null, null, null, null, null, 0, 0);
    static final Command.AckItem ACK = new Command.AckItem("tx", "pid", AckStatus.FAILED, "boom", "g", "lease", 99);
    static final Command.AckItem NULL_ACK = new Command.AckItem(null, null, null, null, null, null, 0);

    /** At least one sample of every command type, with nulls, empty lists, big and unicode values. */
    static List<Command> sampleCommands() {
        List<Command> commands = new ArrayList<>();
        commands.add(new Command.Configure("orders", "ns", "task", OPTIONS));
        commands.add(new Command.Configure("orders", null, null, null));
        commands.add(new Command.Configure(UNICODE, "", "", QueueOptions.defaults()));
        commands.add(new Command.DeleteQueue("orders"));
        commands.add(new Command.DeleteQueue(null));
        commands.add(new Command.Push(List.of(item("1"), item("2"), NULL_ITEM)));
        commands.add(new Command.Push(List.of()));
        commands.add(new Command.Push(List.of(new Command.PushItem("q", null, "m", "t", Utf8Text.of(BIG), UNICODE, null,
                Long.MAX_VALUE, Long.MIN_VALUE))));
        for (SubscriptionMode mode : SubscriptionMode.values()) {
            commands.add(new Command.Pop("q", "p", "g", 10, "lease", true, mode, 123, 4));
        }
        commands.add(new Command.Pop("q", null, null, 1, null, false, null, 0, 1));
        List<Command.AckItem> acks = new ArrayList<>();
        for (AckStatus status : AckStatus.values()) {
            acks.add(new Command.AckItem("tx-" + status, "pid", status, null, "g", "", -1));
        }
        acks.add(NULL_ACK);
        commands.add(new Command.Ack(acks));
        commands.add(new Command.Ack(List.of()));
        commands.add(new Command.Transaction(List.of(new Command.TxPush(List.of(item("3"))),
                new Command.TxAck(ACK), new Command.TxPush(List.of()), new Command.TxAck(NULL_ACK)),
                List.of("lease-1", "lease-2")));
        commands.add(new Command.Transaction(List.of(), List.of()));
        commands.add(new Command.ExtendLease("lease", 60));
        commands.add(new Command.ExtendLease(null, -1));
        commands.add(new Command.RecordTrace("tr", "tx", "pid", "g", List.of("a", UNICODE), "info", BIG));
        commands.add(new Command.RecordTrace(null, null, null, null, Arrays.asList("a", null, "b"), null, null));
        commands.add(new Command.DeleteGroup("g", "q"));
        commands.add(new Command.DeleteGroup("g", null));
        commands.add(new Command.Seek("g", "q", 1_700_000_000_000L, false));
        commands.add(new Command.Seek("g", "q", 0, true));
        commands.add(new Command.SetSubscription("g", 42));
        commands.add(new Command.SetMaintenance(true, false));
        commands.add(new Command.SetMaintenance(false, true));
        commands.add(new Command.Tick());
        commands.add(new Command.PauseQueue("q", true));
        commands.add(new Command.ClearQueue("q"));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Ids(List.of("u1", "u2")), 100));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Ids(List.of()), 1));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.All(), 0));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Filter("q", UNICODE, 1, 2), 5));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Filter(null, null, 0, 0), 5));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Search("q", UNICODE, 1, 2), 5));
        commands.add(new Command.RetryFailedJobs(new FailedJobSelector.Search(null, null, 0, 0), 5));
        commands.add(new Command.RetryFailedJobs(null, 5));
        commands.add(new Command.RetryFailedJob("uuid", "{\"edited\":true}"));
        commands.add(new Command.RetryFailedJob("uuid", null));
        commands.add(new Command.DiskAlarm("n2", true));
        commands.add(new Command.DiskAlarm(null, false));
        commands.add(new Command.ForgetFailedJob("uuid"));
        commands.add(new Command.RemoveFailedJobs(24, "q", true));
        commands.add(new Command.RemoveFailedJobs(0, null, false));
        commands.add(new Command.RemoveFailedJobs(1, "q", false, 10_000));
        commands.add(new Command.AckAndPop(List.of(ACK, NULL_ACK), new Command.Pop("q", "p", "g", 10, "lease", false,
                SubscriptionMode.NEW, 123, 4), 86_400));
        commands.add(new Command.AckAndPop(List.of(), new Command.Pop("q", null, null, 1, null, false, null, 0, 1), 0));
        commands.add(new Command.AckAndPop(null, null, -1));
        return commands;
    }

    /** At least one sample of every result type, with nulls, empty lists, big and unicode values. */
    static List<Result> sampleResults() {
        List<Result> results = new ArrayList<>();
        for (Rejection rejection : Rejection.values()) {
            results.add(new Result.Rejected(rejection, "because " + rejection));
        }
        results.add(new Result.Rejected(null, null));
        results.add(new Result.Configured("qid", "pid", "q", "ns", "task", OPTIONS));
        results.add(new Result.Configured(null, null, null, null, null, null));
        results.add(new Result.QueueDeleted("q", true));
        List<Result.PushOutcome> outcomes = new ArrayList<>();
        int i = 0;
        for (Result.PushStatus status : Result.PushStatus.values()) {
            outcomes.add(new Result.PushOutcome(i++, "tx", status, "mid", "pid", "tr", "q"));
        }
        outcomes.add(new Result.PushOutcome(9, null, null, null, null, null, null));
        results.add(new Result.Pushed(outcomes));
        results.add(new Result.Pushed(List.of()));
        results.add(new Result.Popped("q", "p", "pid", "lease", "g", List.of(
                new Result.Delivery("id", "tx", "tr", BIG, "sub", 1_700_000_000_000L, "pid", "p", "lease", "g", 3),
                new Result.Delivery(null, null, null, null, null, 0, null, null, null, null, 0)), 2));
        results.add(Result.Popped.empty("q", "g"));
        results.add(new Result.Acked(List.of(new Result.AckOutcome(0, "tx", true, null, "q", "p", true, false),
                new Result.AckOutcome(1, null, false, UNICODE, null, null, false, true))));
        results.add(new Result.Acked(List.of()));
        results.add(new Result.TransactionDone(true, null, List.of(
                new Result.TxOutcome(0, "push", true, "tx", "mid", "pid", "q", null, false),
                new Result.TxOutcome(1, "ack", false, null, null, null, null, "bad", true))));
        results.add(new Result.TransactionDone(false, "rolled back", List.of()));
        results.add(new Result.LeaseExtended("lease", true, null, 1_700_000_060_000L));
        results.add(new Result.TraceRecorded("tr"));
        results.add(new Result.TraceRecorded(null));
        results.add(new Result.GroupDeleted("g", null, 3, true));
        results.add(new Result.Sought("g", "q", true, 0, 7));
        results.add(new Result.SubscriptionSet("g", 5, 2));
        results.add(new Result.Maintenance(true, false, 12));
        results.add(new Result.Ticked(1, 2, 3));
        results.add(new Result.QueuePaused("q", false));
        results.add(new Result.Cleared("q", 10_000_000_000L));
        results.add(new Result.FailedJobsRetried(2, List.of("missing"), 40));
        results.add(new Result.FailedJobsRetried(0, List.of(), 0));
        results.add(new Result.FailedJobsRemoved(5));
        results.add(new Result.FailedJobsRemoved(10_000, true));
        results.add(new Result.AckedAndPopped(new Result.Acked(List.of(
                new Result.AckOutcome(0, "tx", true, null, "q", "p", true, false))), Result.Popped.empty("q", "g")));
        results.add(new Result.AckedAndPopped(null, null));
        results.add(new Result.DiskAlarms(List.of("n1", UNICODE)));
        results.add(new Result.DiskAlarms(List.of()));
        results.add(null);
        return results;
    }

    @Test
    void aRequestOnTheHeapIsDecodedWithItsPayloadsAsViewsOfItsArrayAndAnyOtherAsCopies() {
        Command.PushItem unicode = new Command.PushItem("q", null, "m", "t", Utf8Text.of("{\"é\":\"東京\"}"), null,
                null, 0, 0);
        List<Command> commands = List.of(new Command.Push(List.of(item("1"), unicode)));
        byte[] request = EntryCodec.encodeRequestOf(commands);

        ByteBuffer flat = EntryCodec.bufferOf(UnsafeByteOperations.unsafeWrap(request));
        assertThat(flat.hasArray()).isTrue();
        List<Command> viewed = EntryCodec.decodeRequest(flat);
        assertThat(viewed).isEqualTo(commands);
        for (Command.PushItem pushed : ((Command.Push) viewed.get(0)).items()) {
            assertThat(pushed.payload().array()).isSameAs(request);
        }

        ByteString rope = UnsafeByteOperations.unsafeWrap(Arrays.copyOf(request, 7))
                .concat(UnsafeByteOperations.unsafeWrap(Arrays.copyOfRange(request, 7, request.length)));
        ByteBuffer joined = EntryCodec.bufferOf(rope);
        assertThat(joined.isReadOnly()).isTrue();
        List<Command> copied = EntryCodec.decodeRequest(joined);
        assertThat(copied).isEqualTo(commands);
        assertThat(((Command.Push) copied.get(0)).items().get(0).payload().array()).isNotSameAs(request);
    }

    @Test
    void samplesCoverEveryCommandAndResultType() {
        Set<Class<?>> commandTypes = new HashSet<>();
        sampleCommands().forEach(c -> commandTypes.add(c.getClass()));
        assertThat(commandTypes).containsExactlyInAnyOrder(Command.class.getPermittedSubclasses());
        Set<Class<?>> resultTypes = new HashSet<>();
        sampleResults().stream().filter(r -> r != null).forEach(r -> resultTypes.add(r.getClass()));
        assertThat(resultTypes).containsExactlyInAnyOrder(Result.class.getPermittedSubclasses());
    }

    @Test
    void aNestedResultOfTheWrongTypeIsRefused() {
        byte[] popped = EntryCodec.encodeResults(List.of(Result.Popped.empty("q", "g")));
        ByteBuffer reply = ByteBuffer.allocate(popped.length + 2);
        reply.put(popped, 0, 5).put((byte) ResultOp.ACKED_AND_POPPED.code()).put(popped, 5, popped.length - 5);
        reply.put((byte) 0).flip();

        assertThatThrownBy(() -> EntryCodec.decodeResults(reply)).isInstanceOf(CodecException.class)
                .hasMessageContaining("expected a nested Acked").hasMessageContaining("found Popped");
    }

    @Test
    void everyTypeHasAUniqueStableOpCode() {
        Set<Integer> codes = new HashSet<>();
        for (CommandOp op : CommandOp.values()) {
            assertThat(codes.add(op.code())).as("duplicate code %s", op.code()).isTrue();
            assertThat(op.code()).isEqualTo(op.ordinal() + 1);
        }
        Set<Class<?>> typed = new HashSet<>();
        for (CommandOp op : CommandOp.values()) {
            typed.add(op.type());
        }
        assertThat(typed).as("every command type has an op").containsExactlyInAnyOrder(
                Command.class.getPermittedSubclasses());
        assertThat(ResultOp.values()).hasSize(Result.class.getPermittedSubclasses().length);
        // the wire table is frozen: these must never change
        assertThat(CommandOp.CONFIGURE.code()).isEqualTo(1);
        assertThat(CommandOp.TICK.code()).isEqualTo(13);
        assertThat(CommandOp.REMOVE_FAILED_JOBS.code()).isEqualTo(19);
        assertThat(ResultOp.REJECTED.code()).isEqualTo(1);
        assertThat(ResultOp.FAILED_JOBS_REMOVED.code()).isEqualTo(18);
        assertThat(CommandOp.ACK_AND_POP.code()).isEqualTo(20);
        assertThat(ResultOp.ACKED_AND_POPPED.code()).isEqualTo(19);
        assertThat(CommandOp.RETRY_FAILED_JOBS_SEARCH.code()).isEqualTo(21);
        assertThat(CommandOp.DISK_ALARM.code()).isEqualTo(22);
        assertThat(ResultOp.DISK_ALARMS.code()).isEqualTo(20);
    }

    @Test
    void everyCommandRoundTripsAloneAsARequestAndAsAnEntry() {
        for (Command command : sampleCommands()) {
            byte[] request = EntryCodec.encodeRequestOf(List.of(command));
            assertThat(EntryCodec.decodeRequest(ByteBuffer.wrap(request))).as("request %s", command)
                    .containsExactly(command);
            byte[] entry = EntryCodec.encodeEntry(77, List.of(command));
            EntryCodec.Entry decoded = EntryCodec.decodeEntry(ByteBuffer.wrap(entry));
            assertThat(decoded.now()).isEqualTo(77);
            assertThat(decoded.commands()).as("entry %s", command).containsExactly(command);
        }
    }

    @Test
    void allCommandsRoundTripTogetherAndTheSplicedEntryEqualsAFreshlyEncodedOne() {
        List<Command> commands = sampleCommands();
        byte[] request = EntryCodec.encodeRequestOf(commands);
        assertThat(EntryCodec.decodeRequest(ByteBuffer.wrap(request))).isEqualTo(commands);

        ByteString spliced = EntryCodec.entryFromRequest(1_700_000_000_123L, ByteString.copyFrom(request));
        assertThat(spliced.toByteArray()).isEqualTo(EntryCodec.encodeEntry(1_700_000_000_123L, commands));
        EntryCodec.Entry entry = EntryCodec.decodeEntry(spliced.asReadOnlyByteBuffer());
        assertThat(entry.now()).isEqualTo(1_700_000_000_123L);
        assertThat(entry.commands()).isEqualTo(commands);
    }

    @Test
    void aPushWhoseTransactionIdIsItsMessageIdDecodesToOneStringForBoth() {
        Command.PushItem unnamed = new Command.PushItem("q", null, "0193a1c2-7d4e-7f00-8000-000000000001",
                "0193a1c2-7d4e-7f00-8000-000000000001", Utf8Text.of("{}"), null, null, 0, 0);
        byte[] entry = EntryCodec.encodeEntry(1, List.of(new Command.Push(List.of(unnamed, item("2")))));

        List<Command.PushItem> items = ((Command.Push) EntryCodec.decodeEntry(ByteBuffer.wrap(entry)).commands()
                .get(0)).items();
        assertThat(items.get(0).transactionId()).isSameAs(items.get(0).messageId());
        assertThat(items.get(1).transactionId()).isEqualTo("tx-2");
    }

    @Test
    void emptyEntryRoundTrips() {
        EntryCodec.Entry entry = EntryCodec.decodeEntry(ByteBuffer.wrap(EntryCodec.encodeEntry(-5, List.of())));
        assertThat(entry.now()).isEqualTo(-5);
        assertThat(entry.commands()).isEmpty();
        assertThat(EntryCodec.decodeResults(ByteBuffer.wrap(EntryCodec.encodeResults(List.of())))).isEmpty();
    }

    @Test
    void everyResultRoundTrips() {
        List<Result> results = sampleResults();
        for (Result result : results) {
            List<Result> one = new ArrayList<>();
            one.add(result);
            assertThat(EntryCodec.decodeResults(ByteBuffer.wrap(EntryCodec.encodeResults(one))))
                    .as("result %s", result).isEqualTo(one);
        }
        assertThat(EntryCodec.decodeResults(ByteBuffer.wrap(EntryCodec.encodeResults(results)))).isEqualTo(results);
    }

    @Test
    void nullListsSurviveAlthoughTheContractSaysTheyNeverHappen() {
        Command push = new Command.Push(null);
        assertThat(EntryCodec.decodeRequest(ByteBuffer.wrap(EntryCodec.encodeRequestOf(List.of(push)))))
                .containsExactly(push);
        Result pushed = new Result.Pushed(null);
        List<Result> one = new ArrayList<>();
        one.add(pushed);
        assertThat(EntryCodec.decodeResults(ByteBuffer.wrap(EntryCodec.encodeResults(one)))).isEqualTo(one);
    }

    @Test
    void bigPayloadsRoundTrip() {
        String payload = "é".repeat(3_000_000); // 6 MB of UTF-8
        Command push = new Command.Push(List.of(new Command.PushItem("q", null, "m", "t", Utf8Text.of(payload), null, null,
                0, 0)));
        byte[] bytes = EntryCodec.encodeCommand(push);
        assertThat(bytes.length).isGreaterThan(6_000_000);
        assertThat(EntryCodec.decodeRequest(ByteBuffer.wrap(EntryCodec.encodeRequest(List.of(bytes)))))
                .containsExactly(push);
    }

    @Test
    void unknownVersionIsRefusedClearly() {
        byte[] entry = EntryCodec.encodeEntry(1, List.of(new Command.Tick()));
        entry[0] = 2;
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.wrap(entry)))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("log entry has unknown format version 2")
                .hasMessageContaining("reads only version 1");
        byte[] request = EntryCodec.encodeRequestOf(List.of(new Command.Tick()));
        request[0] = (byte) 200;
        assertThatThrownBy(() -> EntryCodec.decodeRequest(ByteBuffer.wrap(request)))
                .hasMessageContaining("client request has unknown format version 200");
        byte[] reply = EntryCodec.encodeResults(List.of(new Result.Ticked(0, 0, 0)));
        reply[0] = 9;
        assertThatThrownBy(() -> EntryCodec.decodeResults(ByteBuffer.wrap(reply)))
                .hasMessageContaining("entry reply has unknown format version 9");
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.allocate(0)))
                .hasMessageContaining("log entry is empty");
    }

    @Test
    void unknownOpCodeIsRefusedClearly() {
        byte[] entry = EntryCodec.encodeEntry(1, List.of(new Command.Tick()));
        entry[entry.length - 1] = 99; // the op code of the only command
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.wrap(entry)))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("unknown command op code 99 at offset 13 of log entry");
        byte[] reply = EntryCodec.encodeResults(List.of(new Result.FailedJobsRemoved(1)));
        reply[5] = 77;
        assertThatThrownBy(() -> EntryCodec.decodeResults(ByteBuffer.wrap(reply)))
                .hasMessageContaining("unknown result op code 77");
    }

    @Test
    void truncatedAndTrailingBytesAreRefused() {
        byte[] entry = EntryCodec.encodeEntry(1, List.of(new Command.DeleteQueue("orders")));
        byte[] truncated = Arrays.copyOf(entry, entry.length - 2);
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.wrap(truncated)))
                .isInstanceOf(CodecException.class).hasMessageContaining("log entry is truncated");
        byte[] trailing = Arrays.copyOf(entry, entry.length + 1);
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.wrap(trailing)))
                .hasMessageContaining("trailing byte");
        byte[] hugeCount = EntryCodec.encodeEntry(1, List.of());
        hugeCount[9] = 0x7F; // count = 2^30-ish with no bytes behind it
        assertThatThrownBy(() -> EntryCodec.decodeEntry(ByteBuffer.wrap(hugeCount)))
                .hasMessageContaining("commands count");
    }

    @Test
    void aNullCommandCannotBeEncoded() {
        assertThatThrownBy(() -> EntryCodec.encodeCommand(null)).isInstanceOf(CodecException.class);
    }
}
