package io.regina.raft;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SnapshotWriterTest {

    private final AtomicLong onDisk = new AtomicLong(-1);
    private final AtomicInteger captures = new AtomicInteger();
    private final AtomicBoolean due = new AtomicBoolean(true);
    private final SnapshotWriter writer = new SnapshotWriter("test-snapshot-writer", onDisk::get, due::get);

    @AfterEach
    void close() {
        writer.close();
    }

    /** A capture at {@code index} whose write waits for {@code release}, then puts it on disk. */
    private SnapshotWriter.Capture at(long index, CountDownLatch release) {
        return () -> {
            captures.incrementAndGet();
            return new SnapshotWriter.Captured() {
                @Override
                public long index() {
                    return index;
                }

                @Override
                public void write() throws IOException {
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    onDisk.set(index);
                }
            };
        };
    }

    @Test
    void ratisHearsOfASnapshotOnlyOnceItIsOnDisk() throws IOException {
        CountDownLatch release = new CountDownLatch(1);
        assertThat(writer.take(false, at(100, release))).as("the write started, nothing on disk yet").isEqualTo(-1);
        assertThat(writer.take(false, at(150, release))).as("while it runs").isEqualTo(-1);
        assertThat(captures).as("no second capture while one is written").hasValue(1);

        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> onDisk.get() == 100);
        assertThat(writer.take(false, at(200, release))).isEqualTo(100);
        assertThat(captures).as("answering the written one captures nothing").hasValue(1);

        assertThat(writer.take(false, at(300, release))).isEqualTo(-1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> onDisk.get() == 300);
        assertThat(writer.take(false, at(400, release))).isEqualTo(300);
    }

    @Test
    void atStopTheWriteInFlightAndTheNewOneAreOnDiskBeforeItAnswers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        writer.take(false, at(100, release));
        Thread releaser = new Thread(() -> {
            sleep(200);
            release.countDown();
        });
        releaser.start();

        assertThat(writer.take(true, at(180, new CountDownLatch(0)))).isEqualTo(180);
        assertThat(onDisk).hasValue(180);
        assertThat(captures).hasValue(2);
        releaser.join();
    }

    @Test
    void aFailedWriteIsTriedAgainAtTheNextCall() throws IOException {
        AtomicInteger failures = new AtomicInteger();
        SnapshotWriter.Capture failing = () -> new SnapshotWriter.Captured() {
            @Override
            public long index() {
                return 100;
            }

            @Override
            public void write() throws IOException {
                failures.incrementAndGet();
                throw new IOException("No space left on device");
            }
        };
        assertThat(writer.take(false, failing)).isEqualTo(-1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> failures.get() == 1);
        writer.awaitInFlight();

        assertThat(writer.take(false, at(120, new CountDownLatch(0)))).isEqualTo(-1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> onDisk.get() == 120);
        assertThat(writer.take(false, at(130, new CountDownLatch(0)))).isEqualTo(120);
    }

    @Test
    void nothingIsCapturedBeforeTheSnapshotIsDueButAWrittenOneIsStillAnswered() throws IOException {
        assertThat(writer.take(false, at(100, new CountDownLatch(0)))).isEqualTo(-1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> onDisk.get() == 100);
        due.set(false);

        assertThat(writer.take(false, at(200, new CountDownLatch(0)))).isEqualTo(100);
        assertThat(writer.take(false, at(300, new CountDownLatch(0)))).isEqualTo(-1);
        assertThat(captures).hasValue(1);
        assertThat(writer.take(true, at(400, new CountDownLatch(0)))).as("at stop, due or not").isEqualTo(400);
    }

    @Test
    void nothingAppliedYetIsNoSnapshot() throws IOException {
        assertThat(writer.take(false, () -> null)).isEqualTo(-1);
        assertThat(writer.take(true, () -> null)).isEqualTo(-1);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
