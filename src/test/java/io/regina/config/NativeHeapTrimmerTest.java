package io.regina.config;

import org.junit.jupiter.api.Test;
import sun.misc.Unsafe;

import java.lang.reflect.Field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeHeapTrimmerTest {
    private static final int BLOCK = 16 * 1024;
    private static final int BLOCKS = 4096;

    @Test
    void readsHowMuchTheCommandGaveBack() {
        assertThat(NativeHeapTrimmer.releasedKb("Trim native heap: RSS+Swap: 580M->547M (-34296K)")).isEqualTo(34296);
        assertThat(NativeHeapTrimmer.releasedKb("Trim native heap: RSS+Swap: 80M->81M (+1024K)")).isZero();
        assertThat(NativeHeapTrimmer.releasedKb("Not available")).isZero();
    }

    @Test
    void givesFreedNativeMemoryBackToTheOs() throws Exception {
        var trimmer = NativeHeapTrimmer.ofThisJvm();
        assumeTrue(trimmer.isPresent(), "this JVM has no System.trim_native_heap (JDK 17.0.9 or later on glibc)");
        trimmer.get().trim();
        Unsafe unsafe = unsafe();
        long[] blocks = new long[BLOCKS];
        for (int i = 0; i < BLOCKS; i++) {
            blocks[i] = unsafe.allocateMemory(BLOCK);
            unsafe.setMemory(blocks[i], BLOCK, (byte) 1);
        }
        // The last block stays: glibc gives back the free top of its heap by itself, never the free space below.
        for (int i = 0; i < BLOCKS - 1; i++) {
            unsafe.freeMemory(blocks[i]);
        }
        try {
            assertThat(trimmer.get().trim()).as("KB given back of the %d MB freed", BLOCK * (BLOCKS - 1) >> 20)
                    .isGreaterThan(BLOCK * (BLOCKS - 1) / 1024 / 2);
        } finally {
            unsafe.freeMemory(blocks[BLOCKS - 1]);
        }
    }

    private static Unsafe unsafe() throws ReflectiveOperationException {
        Field field = Unsafe.class.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        return (Unsafe) field.get(null);
    }
}
