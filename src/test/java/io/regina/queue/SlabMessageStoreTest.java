package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlabMessageStoreTest {

    private final SlabMessageStore store = new SlabMessageStore();

    @Test
    void aHeapWithoutRoomForALargeSlabKeepsBodiesInSmallOnes() {
        List<Integer> asked = new ArrayList<>();
        SlabMessageStore tight = new SlabMessageStore(size -> {
            asked.add(size);
            if (size > 256 * 1024) {
                throw new OutOfMemoryError("Java heap space");
            }
            return new byte[size];
        });
        String body = "b".repeat(1000);
        List<Long> refs = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            refs.add(tight.put(body + i));
        }
        for (int i = 0; i < 2000; i++) {
            assertThat(tight.get(refs.get(i))).isEqualTo(body + i);
        }
        assertThat(tight.count()).isEqualTo(2000);
        assertThat(asked).as("a large slab was asked for, and refused").anyMatch(size -> size > 256 * 1024);
    }

    @Test
    void aBodyTheHeapHasNoRoomForAtAllIsNotStored() {
        SlabMessageStore full = new SlabMessageStore(size -> {
            throw new OutOfMemoryError("Java heap space");
        });
        assertThatThrownBy(() -> full.put("x")).isInstanceOf(OutOfMemoryError.class);
        assertThat(full.count()).isZero();
    }

    @Test
    void aBodyComesBackAsItWentIn() {
        String json = "{\"job\":\"mail\",\"to\":\"anne@example.com\"}";
        String unicode = "{\"name\":\"Zoë 東京 \uD83D\uDE80\"}";
        long a = store.put(json);
        long b = store.put(unicode);
        long c = store.put("");
        long d = store.put((String) null);

        assertThat(store.get(a)).isEqualTo(json);
        assertThat(store.get(b)).isEqualTo(unicode);
        assertThat(store.get(c)).isEmpty();
        assertThat(store.get(d)).isNull();
        assertThat(store.count()).isEqualTo(4);
    }

    @Test
    void aBodyPutAsUtf8BytesIsHeldAsTheSameStringWouldBe() {
        String unicode = "{\"name\":\"Zoë 東京 \uD83D\uDE80\"}";
        long a = store.put(Utf8Text.of(unicode));
        long b = store.put(Utf8Text.of(""));
        long c = store.put((Utf8Text) null);
        long asString = store.put(unicode);

        assertThat(store.get(a)).isEqualTo(unicode);
        assertThat(store.get(b)).isEmpty();
        assertThat(store.get(c)).isNull();
        assertThat(store.bytes()).isEqualTo(2L * (4 + Utf8Text.of(unicode).length()) + 4 + 4);
        store.remove(asString);
        store.remove(a);
        assertThat(store.bytes()).isEqualTo(4 + 4);
    }

    @Test
    void bytesCountWhatIsHeldAndARemovedBodyIsGone() {
        long a = store.put("abc");
        long b = store.put("é");
        assertThat(store.bytes()).isEqualTo(4 + 3 + 4 + 2);

        store.remove(a);
        assertThat(store.get(a)).isNull();
        assertThat(store.get(b)).isEqualTo("é");
        assertThat(store.bytes()).isEqualTo(4 + 2);
        assertThat(store.count()).isEqualTo(1);
    }

    @Test
    void aSnapshotGetsEachBodyAsItsStringWouldBeWritten() {
        List<String> bodies = Arrays.asList("{\"a\":1}", "Zoë 東京 \uD83D\uDE80", "", null);
        List<Long> refs = new ArrayList<>();
        for (String body : bodies) {
            refs.add(store.put(body));
        }
        List<String> written = new ArrayList<>();
        StateWriter out = new StateWriter() {
            @Override
            public void writeInt(int value) {
            }

            @Override
            public void writeLong(long value) {
            }

            @Override
            public void writeBoolean(boolean value) {
            }

            @Override
            public void writeString(String value) {
                written.add(value);
            }
        };
        for (long ref : refs) {
            store.writeTo(ref, out);
        }

        assertThat(written).isEqualTo(bodies);
    }

    @Test
    void removingTwiceChangesNothing() {
        long a = store.put("abc");
        long b = store.put("def");
        store.remove(a);
        store.remove(a);

        assertThat(store.count()).isEqualTo(1);
        assertThat(store.bytes()).isEqualTo(4 + 3);
        assertThat(store.get(b)).isEqualTo("def");
    }

    @Test
    void aSlabIsDroppedWithItsLastBodyAndItsRefsFindNothingAfter() {
        String body = "x".repeat(1_000);
        List<Long> refs = new ArrayList<>();
        while (store.slabsHeld() < 4) {
            refs.add(store.put(body));
        }
        int held = store.slabsHeld();
        // the oldest slabs' bodies, in the order a queue consumes them
        List<Long> consumed = refs.subList(0, refs.size() / 2);
        for (long ref : consumed) {
            store.remove(ref);
        }
        assertThat(store.slabsHeld()).isLessThan(held);
        for (long ref : consumed) {
            assertThat(store.get(ref)).isNull();
            store.remove(ref);
        }
        assertThat(store.count()).isEqualTo(refs.size() - consumed.size());
        for (long ref : refs.subList(consumed.size(), refs.size())) {
            assertThat(store.get(ref)).isEqualTo(body);
        }
    }

    @Test
    void anEmptiedStoreHoldsOnlyTheSlabItFills() {
        List<Long> refs = new ArrayList<>();
        String body = "y".repeat(330);
        for (int i = 0; i < 50_000; i++) {
            refs.add(store.put(body));
        }
        assertThat(store.slabsHeld()).isGreaterThan(3);
        for (long ref : refs) {
            store.remove(ref);
        }

        assertThat(store.slabsHeld()).isEqualTo(1);
        assertThat(store.count()).isZero();
        assertThat(store.bytes()).isZero();
    }

    @Test
    void slabsComeAndGoForeverAsAQueueFlows() {
        String body = "z".repeat(2_000);
        List<Long> inFlight = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            inFlight.add(store.put(body + i));
            if (inFlight.size() > 3_000) {
                store.remove(inFlight.remove(0));
            }
        }

        assertThat(store.count()).isEqualTo(3_000);
        assertThat(store.slabsHeld()).isLessThanOrEqualTo(3);
        for (int i = 0; i < inFlight.size(); i++) {
            assertThat(store.get(inFlight.get(i))).isEqualTo(body + (17_000 + i));
        }
    }

    @Test
    void aBodyLargerThanASlabGetsOneOfItsOwn() {
        String small = "s";
        String huge = "h".repeat(SlabMessageStore.MAX_SLAB + 10);
        long a = store.put(small);
        long b = store.put(huge);
        long c = store.put(small);

        assertThat(store.get(b)).isEqualTo(huge);
        store.remove(b);
        assertThat(store.get(b)).isNull();
        assertThat(store.get(a)).isEqualTo(small);
        assertThat(store.get(c)).isEqualTo(small);
        assertThat(store.slabsHeld()).isEqualTo(2);
    }
}
