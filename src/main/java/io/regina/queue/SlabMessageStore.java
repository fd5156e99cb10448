package io.regina.queue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Keeps message bodies on the heap packed in large byte slabs, each body its UTF-8 bytes behind a header;
 * a reference is the slab's number (high 32 bits) and the body's offset in it (low 32). A broker holds
 * hundreds of thousands of bodies: as a {@code String} and a map entry each (five objects, ~480 bytes for a
 * 330-byte payload) every young collection copied them while they were new, and under a push flood G1 grew
 * the heap into fresh memory to keep its pauses short (1,000 messages a request fell from ~120,000 to
 * ~40,000 messages/s behind a backlog, half the broker's CPU clearing new pages). A full slab is one object of
 * 4 MB, which G1 places in regions of its own and never copies; it is dropped whole when its last body is
 * removed, and the newest emptied one is kept for the next slab.
 *
 * <p>Slab numbers only grow, and an offset is never written twice in a slab's life, so removing a body
 * twice, or after its slab was dropped, finds nothing and changes nothing. The first slabs are small (64 KB,
 * doubling), so a broker with few messages holds little.
 */
public final class SlabMessageStore implements MessageStore {
    /** A 4 MB G1 region less the array's header: a full slab fills its region and wastes none. */
    static final int MAX_SLAB = 4 * 1024 * 1024 - 16;
    private static final int FIRST_SLAB = 64 * 1024;
    private static final int HEADER = 4;
    /** Header values: a removed body; a null payload; otherwise the body's length + 2. */
    private static final int REMOVED = 0;
    private static final int NULL_PAYLOAD = 1;

    /** Slab {@code base + i} is {@code slabs[i]}; null once dropped. */
    private byte[][] slabs = new byte[4][];
    private int[] live = new int[4];
    private long base;
    /** The newest slab's number. */
    private long newest = -1;
    private int held;
    /** The slab being filled and where its next body goes; -1 before the first put. */
    private int current = -1;
    private int fill;
    private int nextSize = FIRST_SLAB;
    private byte[] spare;
    private long bytes;
    private long count;
    /** Allocates a slab's array; a test stands in a heap without room for large ones. */
    private final IntFunction<byte[]> allocate;

    public SlabMessageStore() {
        this(byte[]::new);
    }

    SlabMessageStore(IntFunction<byte[]> allocate) {
        this.allocate = allocate;
    }

    @Override
    public long put(String payload) {
        if (payload != null && isAscii(payload)) {
            // ASCII (most payloads) is its own UTF-8: copied char by char, no byte[] in between
            int length = payload.length();
            byte[] slab = room(HEADER + length);
            int at = fill + HEADER;
            for (int i = 0; i < length; i++) {
                slab[at + i] = (byte) payload.charAt(i);
            }
            return stored(slab, length);
        }
        byte[] utf8 = payload == null ? null : payload.getBytes(StandardCharsets.UTF_8);
        int length = utf8 == null ? 0 : utf8.length;
        byte[] slab = room(HEADER + length);
        if (utf8 != null) {
            System.arraycopy(utf8, 0, slab, fill + HEADER, length);
        }
        return stored(slab, utf8 == null ? -1 : length);
    }

    @Override
    public long put(Utf8Text payload) {
        if (payload == null) {
            return stored(room(HEADER), -1);
        }
        int length = payload.length();
        byte[] slab = room(HEADER + length);
        System.arraycopy(payload.array(), payload.offset(), slab, fill + HEADER, length);
        return stored(slab, length);
    }

    /** The slab the next body goes in, with {@code needed} bytes free at {@link #fill}. */
    private byte[] room(int needed) {
        if (current < 0 || fill + needed > slabs[current].length) {
            startSlab(needed);
        }
        return slabs[current];
    }

    /** Files the body just copied in at {@link #fill} ({@code length} -1: a null payload); its reference. */
    private long stored(byte[] slab, int length) {
        int offset = fill;
        int needed = HEADER + Math.max(length, 0);
        writeHeader(slab, offset, length < 0 ? NULL_PAYLOAD : length + 2);
        fill += needed;
        live[current]++;
        bytes += needed;
        count++;
        return (base + current) << 32 | offset;
    }

    @Override
    public String get(long ref) {
        byte[] slab = slabOf(ref);
        if (slab == null) {
            return null;
        }
        int offset = (int) ref;
        int header = readHeader(slab, offset);
        if (header <= NULL_PAYLOAD) {
            return null;
        }
        return new String(slab, offset + HEADER, header - 2, StandardCharsets.UTF_8);
    }

    @Override
    public void writeTo(long ref, StateWriter out) {
        byte[] slab = slabOf(ref);
        int offset = (int) ref;
        int header = slab == null ? REMOVED : readHeader(slab, offset);
        if (header <= NULL_PAYLOAD) {
            out.writeString(null);
        } else {
            out.writeUtf8(slab, offset + HEADER, header - 2);
        }
    }

    @Override
    public void remove(long ref) {
        byte[] slab = slabOf(ref);
        if (slab == null) {
            return;
        }
        int offset = (int) ref;
        int header = readHeader(slab, offset);
        if (header == REMOVED) {
            return;
        }
        writeHeader(slab, offset, REMOVED);
        int index = (int) ((ref >>> 32) - base);
        live[index]--;
        bytes -= HEADER + (header == NULL_PAYLOAD ? 0 : header - 2);
        count--;
        if (live[index] == 0 && index != current) {
            drop(index);
        }
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public long count() {
        return count;
    }

    /** Slabs held, the one being filled included: what a test sees of the dropping. */
    int slabsHeld() {
        return held;
    }

    private byte[] slabOf(long ref) {
        long index = (ref >>> 32) - base;
        return index < 0 || index >= slabs.length ? null : slabs[(int) index];
    }

    /** Moves on to a new slab with room for {@code needed} bytes; the one left behind goes if it is empty. */
    private void startSlab(int needed) {
        if (current >= 0 && live[current] == 0) {
            drop(current);
        }
        byte[] slab;
        if (needed > MAX_SLAB) {
            slab = allocate.apply(needed);
        } else if (spare != null) {
            slab = spare;
            spare = null;
        } else {
            slab = newSlab(Math.max(nextSize, needed), needed);
        }
        current = append(slab);
        fill = 0;
    }

    /**
     * A slab of {@code size} bytes, or a small one when the heap has no room for that: G1 puts an array over half
     * a region in free regions of its own, side by side, which a heap the broker nearly fills may not have (a
     * 4 MB slab on a 192 MB heap's 1 MB regions failed where the body fitted, and the apply thread that threw
     * stopped the broker). Only where bodies are kept changes, never what is stored. Slabs then grow again
     * from the first size.
     */
    private byte[] newSlab(int size, int needed) {
        try {
            byte[] slab = allocate.apply(size);
            nextSize = Math.min(nextSize * 2, MAX_SLAB);
            return slab;
        } catch (OutOfMemoryError full) {
            int small = Math.max(FIRST_SLAB, needed);
            if (small >= size) {
                throw full;
            }
            nextSize = FIRST_SLAB;
            return allocate.apply(small);
        }
    }

    /** Adds a slab after the newest; the index it has now. */
    private int append(byte[] slab) {
        int index = (int) (newest + 1 - base);
        if (index == slabs.length) {
            int dropped = 0;
            while (dropped < index && slabs[dropped] == null) {
                dropped++;
            }
            if (dropped > slabs.length / 2) {
                // the oldest slabs are gone: slide the window instead of growing it
                int kept = index - dropped;
                System.arraycopy(slabs, dropped, slabs, 0, kept);
                System.arraycopy(live, dropped, live, 0, kept);
                Arrays.fill(slabs, kept, slabs.length, null);
                Arrays.fill(live, kept, live.length, 0);
                base += dropped;
                index = kept;
            } else {
                slabs = Arrays.copyOf(slabs, slabs.length * 2);
                live = Arrays.copyOf(live, live.length * 2);
            }
        }
        slabs[index] = slab;
        held++;
        newest = base + index;
        return index;
    }

    private void drop(int index) {
        byte[] slab = slabs[index];
        slabs[index] = null;
        held--;
        if (slab.length == MAX_SLAB) {
            spare = slab;
        }
    }

    private static boolean isAscii(String payload) {
        for (int i = 0, n = payload.length(); i < n; i++) {
            if (payload.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static void writeHeader(byte[] slab, int offset, int value) {
        slab[offset] = (byte) (value >>> 24);
        slab[offset + 1] = (byte) (value >>> 16);
        slab[offset + 2] = (byte) (value >>> 8);
        slab[offset + 3] = (byte) value;
    }

    private static int readHeader(byte[] slab, int offset) {
        return (slab[offset] & 0xff) << 24 | (slab[offset + 1] & 0xff) << 16 | (slab[offset + 2] & 0xff) << 8
                | slab[offset + 3] & 0xff;
    }
}
