package io.regina.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.regina.api.dto.AckPopResponse;
import io.regina.api.dto.AckResponseItem;
import io.regina.api.dto.PopResponse;
import io.regina.api.dto.PoppedMessage;
import io.regina.api.dto.PushResponseItem;
import io.regina.api.dto.TransactionResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerJsonTest {
    /**
     * Controls, the two characters JSON escapes, ASCII ({@code ?} among it), Latin-1, other BMP characters
     * (U+2028 among them), and a character outside the BMP (a surrogate pair).
     */
    private static final List<String> ALPHABET = List.of("\u0000", "\u0001", "\b", "\t", "\n", "\u000b", "\f",
            "\r", "\u001f", " ", "\"", "\\", "/", "?", "a", "Z", "0", "9", "-", "_", ".", ":", "{", "}", "[", "]",
            "\u007f", "\u0080", "é", "\u00ff", "\u0100", "\u07ff", "\u0800", "\u2028", "\u4e2d", "\ufffd",
            "\uffff", "\ud83d\ude00");

    private final JsonMapper jackson = JsonMapper.builder().build();
    private final SplittableRandom random = new SplittableRandom(21);

    @Test
    void writesWhatJacksonWritesForEveryHotAnswer() {
        for (int i = 0; i < 20_000; i++) {
            Object answer = switch (i % 4) {
                case 0 -> pop();
                case 1 -> new AckPopResponse(random.nextInt(8) == 0 ? null : acks(), random.nextBoolean() ? null : pop());
                case 2 -> acks();
                default -> pushed();
            };
            byte[] expected = jackson.writeValueAsBytes(answer);
            assertThat(AnswerJson.write(answer)).as("answer %d: %s", i, answer).isEqualTo(expected);
            assertThat(bytes(AnswerJson.write(answer, UnpooledByteBufAllocator.DEFAULT))).as("answer %d", i)
                    .isEqualTo(expected);
        }
    }

    @Test
    void aLargeAnswerAndTheSmallOneAfterIt() {
        PopResponse large = new PopResponse(true, "q", "p", "id", "lease", null,
                List.of(message("\"" + "x".repeat(100_000) + "\""), message("[1,2]")), 2);
        List<AckResponseItem> small = List.of(new AckResponseItem(0, "tx", true, null, "q", "p", true, false));
        assertThat(AnswerJson.write(large)).isEqualTo(jackson.writeValueAsBytes(large));
        assertThat(bytes(AnswerJson.write(small, UnpooledByteBufAllocator.DEFAULT)))
                .isEqualTo(jackson.writeValueAsBytes(small));
        assertThat(AnswerJson.write(large)).isEqualTo(jackson.writeValueAsBytes(large));
    }

    private static byte[] bytes(ByteBuf buffer) {
        try {
            return ByteBufUtil.getBytes(buffer);
        } finally {
            buffer.release();
        }
    }

    @Test
    void anEmptyListIsAnEmptyArray() {
        assertThat(new String(AnswerJson.write(List.of()), StandardCharsets.UTF_8)).isEqualTo("[]");
    }

    @Test
    void leavesTextWithALoneSurrogateToJackson() {
        for (String lone : List.of("ok \ud83d", "\ude00 ok", "\ude00\ud83d", "?\ud800?")) {
            assertThat(AnswerJson.write(List.of(new AckResponseItem(0, lone, true, null, "q", "p", true, false))))
                    .as(lone).isNull();
            assertThat(AnswerJson.write(new PopResponse(true, "q", "p", "id", "lease", null,
                    List.of(message("{\"s\":\"" + lone + "\"}")), 1))).as(lone).isNull();
        }
    }

    @Test
    void leavesEveryOtherAnswerToJackson() {
        assertThat(AnswerJson.write(Map.of("a", 1))).isNull();
        assertThat(AnswerJson.write(List.of("text"))).isNull();
        assertThat(AnswerJson.write(new TransactionResponse("tx", true, null, List.of()))).isNull();
        AckResponseItem ack = new AckResponseItem(0, "tx", true, null, "q", "p", true, false);
        PushResponseItem pushed = PushResponseItem.duplicate(0, "tx", "id", "q");
        assertThat(AnswerJson.write(List.of(ack, pushed))).isNull();
        assertThat(AnswerJson.write(List.of(pushed, ack))).isNull();
        assertThat(AnswerJson.write(List.of(ack))).isNotNull();
    }

    private PopResponse pop() {
        List<PoppedMessage> messages = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            messages.add(message(random.nextInt(6) == 0 ? null : "{\"n\":" + random.nextInt() + ",\"t\":"
                    + jackson.writeValueAsString(String.valueOf(text())) + "}"));
        }
        return new PopResponse(random.nextBoolean(), text(), text(), text(), text(), text(),
                random.nextInt(10) == 0 ? null : messages, random.nextInt(-3, 1_000_000));
    }

    private PoppedMessage message(String data) {
        return new PoppedMessage(text(), text(), text(), data, text(), text(), text(), text(), text(), text(),
                random.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    private List<AckResponseItem> acks() {
        List<AckResponseItem> acks = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            acks.add(new AckResponseItem(random.nextInt(0, 100_000), text(), random.nextBoolean(), text(), text(),
                    text(), random.nextBoolean(), random.nextBoolean()));
        }
        return acks;
    }

    private List<PushResponseItem> pushed() {
        List<PushResponseItem> pushed = new ArrayList<>();
        int n = random.nextInt(1, 4);
        for (int i = 0; i < n; i++) {
            pushed.add(switch (random.nextInt(3)) {
                case 0 -> PushResponseItem.queued(i, text(), text(), text(), text(), text());
                case 1 -> PushResponseItem.duplicate(i, text(), text(), text());
                default -> PushResponseItem.buffered(i, text(), text(), text(), text());
            });
        }
        return pushed;
    }

    /** Null, empty, or up to 40 characters of the alphabet. */
    private String text() {
        int kind = random.nextInt(8);
        if (kind == 0) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        for (int i = kind == 1 ? 0 : random.nextInt(1, 40); i > 0; i--) {
            text.append(ALPHABET.get(random.nextInt(ALPHABET.size())));
        }
        return text.toString();
    }
}
