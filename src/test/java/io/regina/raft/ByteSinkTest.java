package io.regina.raft;

import io.regina.queue.Utf8Text;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ByteSinkTest {

    @Test
    void aScratchEncodingIsCopiedOutSoTheNextEncodingOnTheThreadCannotChangeIt() {
        ByteSink first = ByteSink.scratch();
        for (int i = 0; i < 1024; i++) {
            first.writeInt(7); // exactly the scratch array's 4096 bytes: the case a plain sink hands out as is
        }
        byte[] kept = first.toByteArray();

        ByteSink second = ByteSink.scratch();
        second.writeInt(9);
        second.toByteArray();

        assertThat(kept).hasSize(4096);
        assertThat(ByteBuffer.wrap(kept).getInt(4092)).isEqualTo(7);
        assertThat(ByteBuffer.wrap(kept).getInt(0)).isEqualTo(7);
    }

    @Test
    void utf8BytesAreWrittenAsTheirStringWouldBe() {
        String[] strings = {"", "order-424242", "x".repeat(70_000), "Zoë – 東京 🚀"};
        ByteSink asStrings = ByteSink.scratch();
        for (String s : strings) {
            asStrings.writeString(s);
        }
        byte[] expected = asStrings.toByteArray();
        ByteSink asBytes = ByteSink.scratch();
        for (String s : strings) {
            byte[] utf8 = ("<<" + s + ">>").getBytes(StandardCharsets.UTF_8);
            asBytes.writeUtf8(utf8, 2, utf8.length - 4);
        }

        assertThat(asBytes.toByteArray()).isEqualTo(expected);
    }

    @Test
    void asciiAndOtherStringsRoundTripThroughTheirFastAndStrictPaths() {
        String[] strings = {"", "order-424242", "x".repeat(70_000), "Zoë – 東京 🚀", "mixed ascii then é"};
        ByteSink out = ByteSink.scratch();
        for (String s : strings) {
            out.writeString(s);
        }
        byte[] bytes = out.toByteArray();
        ByteSource readOnly = new ByteSource(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), "test");
        ByteSource heap = new ByteSource(ByteBuffer.wrap(bytes), "test");
        for (String s : strings) {
            assertThat(readOnly.readString()).isEqualTo(s);
            assertThat(heap.readString()).isEqualTo(s);
        }
    }

    @Test
    void aStringIsReadAsItsUtf8BytesWhenTheyAreUtf8AndRefusedWhenNot() {
        String[] strings = {"", "order-424242", "x".repeat(70_000), "Zoë – 東京 🚀", null};
        ByteSink out = ByteSink.scratch();
        for (String s : strings) {
            out.writeString(s);
        }
        ByteSource in = new ByteSource(ByteBuffer.wrap(out.toByteArray()).asReadOnlyBuffer(), "test");
        for (String s : strings) {
            assertThat(in.readUtf8Text()).isEqualTo(Utf8Text.of(s));
        }

        ByteSink invalid = ByteSink.scratch();
        invalid.writeUtf8(new byte[] {'{', (byte) 0xE2, (byte) 0x82, '}'}, 0, 4);
        assertThatThrownBy(() -> new ByteSource(ByteBuffer.wrap(invalid.toByteArray()), "log entry").readUtf8Text())
                .isInstanceOf(CodecException.class).hasMessageContaining("log entry is corrupt: invalid UTF-8");
    }
}
