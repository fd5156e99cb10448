package io.regina.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.regina.api.dto.AckPopResponse;
import io.regina.api.dto.AckResponseItem;
import io.regina.api.dto.PopResponse;
import io.regina.api.dto.PoppedMessage;
import io.regina.api.dto.PushResponseItem;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The hot endpoints' answers (a pop, an ack, an ack-then-pop, a push) written to JSON by hand, byte for byte
 * what the application's Jackson mapper writes for the same records: fields in component order, nulls
 * written, strings escaped as Jackson escapes them, a payload written as is. Databind's serializer lookup,
 * generator and recycled buffers were 11% of the event loop in the 32 × empty ack+pop profile; this is a
 * walk over a few known records. Anything else, and any text holding a lone UTF-16 surrogate (which
 * Jackson escapes or refuses), is left to Jackson: {@link #write} answers null.
 */
final class AnswerJson {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** The ASCII characters Jackson escapes in a string: the controls, the quote and the backslash. */
    private static final boolean[] ESCAPED = escaped();
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    /** Each thread writes its answers into its own buffer, kept between answers unless one made it large. */
    private static final int FIRST_CAPACITY = 4 * 1024;
    private static final ThreadLocal<AnswerJson> BUFFERS = ThreadLocal.withInitial(AnswerJson::new);
    /** Room for the answer to a push of 1,000 messages (~250 bytes each) without growing again next time. */
    private static final int KEPT_CAPACITY = 512 * 1024;

    private byte[] out = new byte[FIRST_CAPACITY];
    private int length;

    private AnswerJson() {
    }

    private static boolean[] escaped() {
        boolean[] escaped = new boolean[0x80];
        Arrays.fill(escaped, 0, 0x20, true);
        escaped['"'] = true;
        escaped['\\'] = true;
        return escaped;
    }

    /** The answer's JSON, or null when it is not one of the hot answers or holds a lone surrogate. */
    static byte[] write(Object body) {
        AnswerJson json = written(body);
        return json == null ? null : json.taken(Arrays.copyOf(json.out, json.length));
    }

    /** As {@link #write(Object)}, into a buffer from {@code allocator}. */
    static ByteBuf write(Object body, ByteBufAllocator allocator) {
        AnswerJson json = written(body);
        if (json == null) {
            return null;
        }
        ByteBuf buffer = allocator.buffer(json.length);
        buffer.writeBytes(json.out, 0, json.length);
        return json.taken(buffer);
    }

    private static AnswerJson written(Object body) {
        AnswerJson json = BUFFERS.get();
        json.length = 0;
        try {
            if (body instanceof PopResponse pop) {
                json.pop(pop);
            } else if (body instanceof AckPopResponse ackPop) {
                json.ackPop(ackPop);
            } else if (!(body instanceof List<?> list) || !json.list(list)) {
                return null;
            }
        } catch (Unwritten e) {
            json.taken(null);
            return null;
        }
        return json;
    }

    /** {@code copy}, once this buffer's bytes are in it; a buffer grown past what is kept is let go. */
    private <T> T taken(T copy) {
        if (out.length > KEPT_CAPACITY) {
            out = new byte[FIRST_CAPACITY];
        }
        return copy;
    }

    private boolean list(List<?> items) {
        if (items.isEmpty()) {
            ascii("[]");
            return true;
        }
        Object first = items.get(0);
        if (first instanceof AckResponseItem) {
            acks(items);
            return true;
        }
        if (first instanceof PushResponseItem) {
            pushed(items);
            return true;
        }
        return false;
    }

    private void pop(PopResponse pop) {
        first(Key.SUCCESS);
        bool(pop.success());
        next(Key.QUEUE);
        string(pop.queue());
        next(Key.PARTITION);
        string(pop.partition());
        next(Key.PARTITION_ID);
        string(pop.partitionId());
        next(Key.LEASE_ID);
        string(pop.leaseId());
        next(Key.CONSUMER_GROUP);
        string(pop.consumerGroup());
        next(Key.MESSAGES);
        List<PoppedMessage> messages = pop.messages();
        if (messages == null) {
            put(NULL);
        } else {
            put((byte) '[');
            for (int i = 0; i < messages.size(); i++) {
                if (i > 0) {
                    put((byte) ',');
                }
                message(messages.get(i));
            }
            put((byte) ']');
        }
        next(Key.PARTITIONS_CLAIMED);
        number(pop.partitionsClaimed());
        put((byte) '}');
    }

    private void message(PoppedMessage message) {
        if (message == null) {
            put(NULL);
            return;
        }
        first(Key.ID);
        string(message.id());
        next(Key.TRANSACTION_ID);
        string(message.transactionId());
        next(Key.TRACE_ID);
        string(message.traceId());
        next(Key.DATA);
        if (message.data() == null) {
            put(NULL);
        } else {
            utf8(message.data(), false);
        }
        next(Key.PRODUCER_SUB);
        string(message.producerSub());
        next(Key.CREATED_AT);
        string(message.createdAt());
        next(Key.PARTITION_ID);
        string(message.partitionId());
        next(Key.PARTITION);
        string(message.partition());
        next(Key.LEASE_ID);
        string(message.leaseId());
        next(Key.CONSUMER_GROUP);
        string(message.consumerGroup());
        next(Key.ATTEMPTS);
        number(message.attempts());
        put((byte) '}');
    }

    private void ackPop(AckPopResponse answer) {
        first(Key.ACKNOWLEDGED);
        if (answer.acknowledged() == null) {
            put(NULL);
        } else {
            acks(answer.acknowledged());
        }
        next(Key.POP);
        if (answer.pop() == null) {
            put(NULL);
        } else {
            pop(answer.pop());
        }
        put((byte) '}');
    }

    private void acks(List<?> items) {
        put((byte) '[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                put((byte) ',');
            }
            Object item = items.get(i);
            if (item instanceof AckResponseItem ack) {
                ack(ack);
            } else if (item == null) {
                put(NULL);
            } else {
                throw Unwritten.INSTANCE;
            }
        }
        put((byte) ']');
    }

    private void ack(AckResponseItem ack) {
        first(Key.INDEX);
        number(ack.index());
        next(Key.TRANSACTION_ID);
        string(ack.transactionId());
        next(Key.SUCCESS);
        bool(ack.success());
        next(Key.ERROR);
        string(ack.error());
        next(Key.QUEUE_NAME);
        string(ack.queueName());
        next(Key.PARTITION_NAME);
        string(ack.partitionName());
        next(Key.LEASE_RELEASED);
        bool(ack.leaseReleased());
        next(Key.DLQ);
        bool(ack.dlq());
        put((byte) '}');
    }

    private void pushed(List<?> items) {
        put((byte) '[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                put((byte) ',');
            }
            Object item = items.get(i);
            if (item instanceof PushResponseItem.Queued queued) {
                pushedHead(queued.index(), queued.transactionId(), queued.status(), queued.messageId());
                next(Key.PUSHED_PARTITION_ID);
                string(queued.partitionId());
                next(Key.PUSHED_TRACE_ID);
                string(queued.traceId());
                next(Key.QUEUE_NAME);
                string(queued.queueName());
            } else if (item instanceof PushResponseItem.Duplicate duplicate) {
                pushedHead(duplicate.index(), duplicate.transactionId(), duplicate.status(), duplicate.messageId());
                next(Key.QUEUE_NAME);
                string(duplicate.queueName());
            } else if (item instanceof PushResponseItem.Buffered buffered) {
                pushedHead(buffered.index(), buffered.transactionId(), buffered.status(), buffered.messageId());
                next(Key.PUSHED_TRACE_ID);
                string(buffered.traceId());
                next(Key.QUEUE_NAME);
                string(buffered.queueName());
            } else if (item == null) {
                put(NULL);
                continue;
            } else {
                throw Unwritten.INSTANCE;
            }
            put((byte) '}');
        }
        put((byte) ']');
    }

    /** The fields every push outcome starts with, in Queen's snake_case. */
    private void pushedHead(int index, String transactionId, String status, String messageId) {
        first(Key.INDEX);
        number(index);
        next(Key.PUSHED_TRANSACTION_ID);
        string(transactionId);
        next(Key.STATUS);
        string(status);
        next(Key.PUSHED_MESSAGE_ID);
        string(messageId);
    }

    private void bool(boolean value) {
        put(value ? TRUE : FALSE);
    }

    private void number(int value) {
        if (value < 0) {
            ascii(Integer.toString(value));
            return;
        }
        int digits = 1;
        for (int rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        room(digits);
        for (int at = length + digits - 1, rest = value; at >= length; at--, rest /= 10) {
            out[at] = (byte) ('0' + rest % 10);
        }
        length += digits;
    }

    private void string(String text) {
        if (text == null) {
            put(NULL);
            return;
        }
        put((byte) '"');
        utf8(text, true);
        put((byte) '"');
    }

    /**
     * {@code text} in UTF-8, escaped as Jackson escapes a string's characters when {@code escape}. The common
     * case, ASCII with nothing to escape (ids, names, most payloads), is copied char by char without encoding
     * the text to a byte array first; anything else goes through the character walk.
     */
    private void utf8(String text, boolean escape) {
        int n = text.length();
        room(n);
        int start = length;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80 || escape && ESCAPED[c]) {
                length = start;
                walk(text, escape);
                return;
            }
            out[length++] = (byte) c;
        }
    }

    private void walk(String text, boolean escape) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (escape && (c < 0x20 || c == '"' || c == '\\')) {
                    escaped(c);
                } else {
                    put((byte) c);
                }
            } else if (!Character.isSurrogate(c)) {
                room(3);
                if (c < 0x800) {
                    out[length++] = (byte) (0xC0 | (c >> 6));
                } else {
                    out[length++] = (byte) (0xE0 | (c >> 12));
                    out[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                }
                out[length++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                int code = Character.toCodePoint(c, text.charAt(++i));
                room(4);
                out[length++] = (byte) (0xF0 | (code >> 18));
                out[length++] = (byte) (0x80 | ((code >> 12) & 0x3F));
                out[length++] = (byte) (0x80 | ((code >> 6) & 0x3F));
                out[length++] = (byte) (0x80 | (code & 0x3F));
            } else {
                throw Unwritten.INSTANCE;
            }
        }
    }

    /** Jackson's escapes: the short forms it has, a backslash, u, 00 and two capital hex digits for the other controls. */
    private void escaped(char c) {
        switch (c) {
            case '"' -> ascii("\\\"");
            case '\\' -> ascii("\\\\");
            case '\b' -> ascii("\\b");
            case '\t' -> ascii("\\t");
            case '\n' -> ascii("\\n");
            case '\f' -> ascii("\\f");
            case '\r' -> ascii("\\r");
            default -> {
                ascii("\\u00");
                put(HEX[c >> 4]);
                put(HEX[c & 0xF]);
            }
        }
    }

    private void first(Key key) {
        put(key.first);
    }

    private void next(Key key) {
        put(key.next);
    }

    private void put(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, out, length, bytes.length);
        length += bytes.length;
    }

    private void ascii(String text) {
        int n = text.length();
        room(n);
        for (int i = 0; i < n; i++) {
            out[length + i] = (byte) text.charAt(i);
        }
        length += n;
    }

    private void put(byte b) {
        room(1);
        out[length++] = b;
    }

    private void room(int more) {
        if (length + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, length + more));
        }
    }

    /** A field's name, written before its value: {@code {"name":} first in an object, {@code ,"name":} after. */
    private enum Key {
        SUCCESS("success"),
        QUEUE("queue"),
        PARTITION("partition"),
        PARTITION_ID("partitionId"),
        LEASE_ID("leaseId"),
        CONSUMER_GROUP("consumerGroup"),
        MESSAGES("messages"),
        PARTITIONS_CLAIMED("partitionsClaimed"),
        ID("id"),
        TRANSACTION_ID("transactionId"),
        TRACE_ID("traceId"),
        DATA("data"),
        PRODUCER_SUB("producerSub"),
        CREATED_AT("createdAt"),
        ATTEMPTS("attempts"),
        ACKNOWLEDGED("acknowledged"),
        POP("pop"),
        INDEX("index"),
        ERROR("error"),
        QUEUE_NAME("queueName"),
        PARTITION_NAME("partitionName"),
        LEASE_RELEASED("leaseReleased"),
        DLQ("dlq"),
        PUSHED_TRANSACTION_ID("transaction_id"),
        STATUS("status"),
        PUSHED_MESSAGE_ID("message_id"),
        PUSHED_PARTITION_ID("partition_id"),
        PUSHED_TRACE_ID("trace_id");

        final byte[] first;
        final byte[] next;

        Key(String name) {
            this.first = ("{\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
            this.next = (",\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * What this writer leaves to Jackson met on the way (a lone surrogate, a list of mixed answers);
     * thrown without a stack, caught in {@link #written}.
     */
    private static final class Unwritten extends RuntimeException {
        static final Unwritten INSTANCE = new Unwritten();

        private Unwritten() {
            super(null, null, false, false);
        }
    }
}
