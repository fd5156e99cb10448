package io.regina.queue;

import io.regina.queue.FailedJobs.Page;
import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.FailedJobsRetried;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

class FailedJobsTest {

    private final Broker broker = new Broker();

    /** Pushes a job, pops it and dead-letters it with this error; one second later each time. */
    private FailedJob fail(String queue, String payload, String error) {
        broker.advanceSeconds(1);
        broker.push(item(queue).payload(payload));
        Delivery delivery = broker.pop(queue).messages().get(0);
        broker.ack(ackOf(delivery).status(AckStatus.DLQ).error(error));
        return broker.view().failedJobs().list(queue, null, 0, 0, 1, null).items().get(0);
    }

    private Page list(String queue, String text, long from, long to, int limit, String cursor) {
        return broker.view().failedJobs().list(queue, text, from, to, limit, cursor);
    }

    @Test
    void listIsNewestFirstWithCursorPagingAndTotal() {
        FailedJob a = fail("q", "a", "e");
        FailedJob b = fail("q", "b", "e");
        FailedJob c = fail("q", "c", "e");

        Page first = list(null, null, 0, 0, 2, null);
        Page second = list(null, null, 0, 0, 2, first.nextCursor());

        assertThat(first.items()).containsExactly(c, b);
        assertThat(first.total()).isEqualTo(3);
        assertThat(second.items()).containsExactly(a);
        assertThat(second.nextCursor()).isNull();
    }

    @Test
    void aRowCarriesTheMessage() {
        broker.push(item("q").payload("{\"n\":1}").tx("t1").messageId("m1").traceId("tr").producerSub("bob"));
        long createdAt = broker.now();
        broker.advanceSeconds(1);
        broker.ack(ackOf(broker.pop("q").messages().get(0)).status(AckStatus.DLQ).error("bad input"));

        FailedJob row = broker.view().failedJobs().list(null, null, 0, 0, 1, null).items().get(0);

        assertThat(row).extracting(FailedJob::queue, FailedJob::partition, FailedJob::messageId,
                        FailedJob::transactionId, FailedJob::traceId, FailedJob::data, FailedJob::error,
                        FailedJob::attempts, FailedJob::producerSub, FailedJob::createdAt, FailedJob::failedAt)
                .containsExactly("q", "Default", "m1", "t1", "tr", "{\"n\":1}", "bad input", 1, "bob", createdAt,
                        broker.now());
        assertThat(broker.view().failedJobs().get(row.uuid())).isEqualTo(row);
        assertThat(broker.view().queue("q").failed()).isEqualTo(1);
    }

    @Test
    void listFiltersByQueueTextAndTime() {
        FailedJob a = fail("q1", "{\"user\":\"ann\"}", "timeout");
        FailedJob b = fail("q2", "{\"user\":\"bob\"}", "refused");
        FailedJob c = fail("q1", "{\"user\":\"cid\"}", "refused");

        assertThat(list("q1", null, 0, 0, 10, null).items()).containsExactly(c, a);
        assertThat(list("q1", null, 0, 0, 10, null).total()).isEqualTo(2);
        assertThat(list(null, "refused", 0, 0, 10, null).items()).containsExactly(c, b);
        assertThat(list(null, "bob", 0, 0, 10, null).items()).containsExactly(b);
        assertThat(list(null, null, b.failedAt(), 0, 10, null).items()).containsExactly(c, b);
        assertThat(list(null, null, 0, b.failedAt(), 10, null).items()).containsExactly(b, a);
        assertThat(list(null, null, b.failedAt(), b.failedAt(), 10, null).total()).isEqualTo(1);
        assertThat(list("q1", "refused", 0, 0, 10, null).items()).containsExactly(c);
    }

    @Test
    void retryByIdsPushesEachBackAsAFreshDeliveryAndReportsMissing() {
        FailedJob a = fail("q", "a", "e");

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Ids(List.of(a.uuid(), "missing-uuid")), 100), FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(1);
        assertThat(retried.missing()).containsExactly("missing-uuid");
        assertThat(broker.view().failedJobs().size()).isZero();
        Delivery again = broker.pop("q").messages().get(0);
        assertThat(again.data()).isEqualTo("a");
        assertThat(again.transactionId()).isEqualTo(a.transactionId());
        assertThat(again.id()).isEqualTo(a.messageId());
        assertThat(again.attempts()).as("a fresh delivery").isEqualTo(1);
    }

    @Test
    void retryAllIsBoundedByTheLimitAndSaysWhatRemains() {
        fail("q", "a", "e");
        fail("q", "b", "e");
        fail("q", "c", "e");

        FailedJobsRetried first = broker.apply(new Command.RetryFailedJobs(new FailedJobSelector.All(), 2),
                FailedJobsRetried.class);

        assertThat(first.retried()).isEqualTo(2);
        assertThat(first.remaining()).isEqualTo(1);
        assertThat(data(broker.pop("q", 10))).as("oldest first").containsExactly("a", "b");

        FailedJobsRetried second = broker.apply(new Command.RetryFailedJobs(new FailedJobSelector.All(), 2),
                FailedJobsRetried.class);
        assertThat(second.retried()).isEqualTo(1);
        assertThat(second.remaining()).isZero();
    }

    @Test
    void retryByFilterTouchesOnlyMatchingRows() {
        fail("q1", "a", "timeout");
        FailedJob kept = fail("q1", "b", "refused");
        fail("q2", "c", "timeout");

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Search("q1", "timeout", 0, 0), 10), FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(1);
        assertThat(retried.remaining()).isZero();
        assertThat(list(null, null, 0, 0, 10, null).items()).extracting(FailedJob::data).containsExactly("c", "b");
        assertThat(list("q1", null, 0, 0, 10, null).items()).containsExactly(kept);
    }

    @Test
    void retryByTextRetriesExactlyTheRowsHoldingItsWordsOldestFirst() {
        FailedJob a = fail("q", "{\"order\":424242}", "PaymentGatewayTimeout");
        fail("q", "{\"order\":4242}", "PaymentGatewayTimeout");
        FailedJob c = fail("q", "{\"order\":424242}", "PaymentGatewayTimeout (again)");
        fail("other", "{\"order\":424242}", "PaymentGatewayTimeout");
        FailedJobSelector.Search filter = new FailedJobSelector.Search("q", "paymentgatewaytimeout 424242", 0, 0);

        FailedJobsRetried first = broker.apply(new Command.RetryFailedJobs(filter, 1), FailedJobsRetried.class);
        assertThat(first.retried()).isEqualTo(1);
        assertThat(first.remaining()).isEqualTo(1);
        assertThat(broker.view().failedJobs().get(a.uuid())).as("oldest first").isNull();

        FailedJobsRetried second = broker.apply(new Command.RetryFailedJobs(filter, 10), FailedJobsRetried.class);
        assertThat(second.retried()).isEqualTo(1);
        assertThat(second.remaining()).isZero();
        assertThat(broker.view().failedJobs().get(c.uuid())).isNull();
        assertThat(broker.view().failedJobs().size()).as("4242 is another word; other is another queue")
                .isEqualTo(2);
    }

    @Test
    void aFilterOfAnOldLogEntryStillRetriesByCaseSensitiveSubstringOldestFirst() {
        FailedJob a = fail("q", "{\"order\":424242}", "PaymentGatewayTimeout");
        FailedJob b = fail("q", "{\"order\":4242}", "GatewayTimeout");
        fail("q", "{\"order\":4242}", "gatewaytimeout");
        fail("other", "{\"order\":4242}", "GatewayTimeout");
        FailedJobSelector.Filter legacy = new FailedJobSelector.Filter("q", "4242", 0, 0);

        FailedJobsRetried first = broker.apply(new Command.RetryFailedJobs(legacy, 2), FailedJobsRetried.class);

        assertThat(first.retried()).as("4242 inside 424242 matches as it did").isEqualTo(2);
        assertThat(first.remaining()).isEqualTo(1);
        assertThat(broker.view().failedJobs().get(a.uuid())).isNull();
        assertThat(broker.view().failedJobs().get(b.uuid())).isNull();

        FailedJobsRetried cased = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Filter("q", "GatewayTimeout", 0, 0), 10), FailedJobsRetried.class);
        assertThat(cased.retried()).as("case-sensitive, as it was").isZero();
        assertThat(cased.remaining()).isZero();
        FailedJobsRetried words = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Search("q", "4242", 0, 0), 10), FailedJobsRetried.class);
        assertThat(words.retried()).as("the same text as a search: the whole word").isEqualTo(1);
        assertThat(broker.view().failedJobs().size()).isEqualTo(1);
    }

    @Test
    void anEmptySubstringOfAnOldLogEntryMatchesEveryRowOfItsRange() {
        fail("q", "a", "e");
        fail("q", "b", "e");
        fail("other", "c", "e");

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Filter("q", "", 0, 0), 10), FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(2);
        assertThat(broker.view().failedJobs().size()).isEqualTo(1);
    }

    @Test
    void retryByFilterWithALimitSaysWhatRemains() {
        fail("q", "a", "e");
        fail("q", "b", "e");
        fail("q", "c", "e");

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Search("q", null, 0, 0), 1), FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(1);
        assertThat(retried.remaining()).isEqualTo(2);
    }

    @Test
    void retryOneWithAnEditedPayload() {
        FailedJob a = fail("q", "{\"v\":1}", "e");

        broker.apply(new Command.RetryFailedJob(a.uuid(), "{\"v\":2}"), FailedJobsRetried.class);

        assertThat(data(broker.pop("q"))).containsExactly("{\"v\":2}");
    }

    @Test
    void retryOneOfAnUnknownRowIsNotFound() {
        assertThat(broker.apply(new Command.RetryFailedJob("nope", null)))
                .isInstanceOfSatisfying(Result.Rejected.class,
                        r -> {
                            assertThat(r.rejection()).isEqualTo(Rejection.FAILED_JOB_NOT_FOUND);
                            assertThat(r.message()).isEqualTo("Failed job nope not found");
                        });
    }

    @Test
    void aRetriedJobThatFailsAgainPointsToItsFormerRow() {
        FailedJob first = fail("q", "a", "e1");
        broker.apply(new Command.RetryFailedJob(first.uuid(), null));
        broker.advanceSeconds(1);

        broker.ack(ackOf(broker.pop("q").messages().get(0)).status(AckStatus.DLQ).error("e2"));

        FailedJob second = list(null, null, 0, 0, 10, null).items().get(0);
        assertThat(second.retryOf()).isEqualTo(first.uuid());
        assertThat(second.error()).isEqualTo("e2");
        assertThat(second.uuid()).isNotEqualTo(first.uuid());
    }

    @Test
    void aRetryOfAQueueThatWasDeletedRecreatesIt() {
        FailedJob a = fail("q", "a", "e");
        broker.apply(new Command.DeleteQueue("q"));
        assertThat(broker.view().failedJobs().size()).as("deleting the queue removed its rows").isZero();

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Ids(List.of(a.uuid())), 10), FailedJobsRetried.class);

        assertThat(retried.missing()).containsExactly(a.uuid());
    }

    @Test
    void forgetRemovesOneRow() {
        FailedJob a = fail("q", "a", "e");

        assertThat(broker.apply(new Command.ForgetFailedJob(a.uuid()))).isInstanceOfSatisfying(
                Result.FailedJobsRemoved.class, r -> assertThat(r.removed()).isEqualTo(1));
        assertThat(broker.view().failedJobs().get(a.uuid())).isNull();
        assertThat(broker.apply(new Command.ForgetFailedJob(a.uuid()))).isInstanceOfSatisfying(
                Result.Rejected.class, r -> assertThat(r.rejection()).isEqualTo(Rejection.FAILED_JOB_NOT_FOUND));
    }

    @Test
    void flushWithoutHoursDeletesAllOptionallyOfOneQueue() {
        fail("q1", "a", "e");
        fail("q2", "b", "e");
        fail("q2", "c", "e");

        assertThat(broker.apply(new Command.RemoveFailedJobs(0, "q2", false), Result.FailedJobsRemoved.class)
                .removed()).isEqualTo(2);
        assertThat(broker.apply(new Command.RemoveFailedJobs(0, null, false), Result.FailedJobsRemoved.class)
                .removed()).isEqualTo(1);
        assertThat(broker.view().failedJobs().size()).isZero();
    }

    @Test
    void flushAndPruneByHoursKeepYoungerRows() {
        FailedJob old = fail("q", "old", "e");
        broker.advanceSeconds(3_600 - 1);
        FailedJob young = fail("q", "young", "e");
        assertThat(broker.now() - old.failedAt()).isEqualTo(3_600_000);

        Result.FailedJobsRemoved pruned = broker.apply(new Command.RemoveFailedJobs(1, null, true),
                Result.FailedJobsRemoved.class);
        assertThat(pruned.removed()).as("prune: more than an hour ago").isZero();

        Result.FailedJobsRemoved flushed = broker.apply(new Command.RemoveFailedJobs(1, null, false),
                Result.FailedJobsRemoved.class);
        assertThat(flushed.removed()).as("flush: at least an hour ago").isEqualTo(1);
        assertThat(list(null, null, 0, 0, 10, null).items()).containsExactly(young);
    }

    @Test
    void boundedRemovalTakesTheOldestFirstAndSaysWhenMoreRemain() {
        FailedJob first = fail("q", "a", "e");
        broker.advanceSeconds(1);
        FailedJob second = fail("q", "b", "e");
        broker.advanceSeconds(1);
        FailedJob third = fail("q", "c", "e");

        Result.FailedJobsRemoved step = broker.apply(new Command.RemoveFailedJobs(0, "q", false, 2),
                Result.FailedJobsRemoved.class);
        assertThat(step.removed()).isEqualTo(2);
        assertThat(step.more()).isTrue();
        assertThat(broker.view().failedJobs().get(first.uuid())).isNull();
        assertThat(broker.view().failedJobs().get(second.uuid())).isNull();

        Result.FailedJobsRemoved last = broker.apply(new Command.RemoveFailedJobs(0, "q", false, 2),
                Result.FailedJobsRemoved.class);
        assertThat(last.removed()).isEqualTo(1);
        assertThat(last.more()).isFalse();
        assertThat(broker.view().failedJobs().get(third.uuid())).isNull();
    }
}
