package io.regina.raft;

import io.regina.queue.AckStatus;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The stable one-byte code of each constant of an enum the codec writes; 0 is null. Codes never
 * change and are never reused, whatever the enum's declaration order. A table must name every
 * constant of its enum: one added without a code fails when this class loads, so in every test.
 *
 * <p>{@link Rejection} keeps its codes on the enum ({@link Rejection#code()}), so a new rejection
 * brings its own; the queue enums that have no code of their own get theirs in the tables here,
 * which keeps the byte format out of the domain.
 */
final class EnumCode<E extends Enum<E>> {

    static final EnumCode<AckStatus> ACK_STATUS = new EnumCode<>("ack status", AckStatus.class, Map.of(
            AckStatus.COMPLETED, 1,
            AckStatus.FAILED, 2,
            AckStatus.DLQ, 3,
            AckStatus.RETRY, 4,
            AckStatus.RELEASE, 5));

    static final EnumCode<SubscriptionMode> SUBSCRIPTION_MODE = new EnumCode<>("subscription mode",
            SubscriptionMode.class, Map.of(
                    SubscriptionMode.ALL, 1,
                    SubscriptionMode.NEW, 2,
                    SubscriptionMode.FROM, 3));

    static final EnumCode<Result.PushStatus> PUSH_STATUS = new EnumCode<>("push status", Result.PushStatus.class,
            Map.of(
                    Result.PushStatus.QUEUED, 1,
                    Result.PushStatus.DUPLICATE, 2,
                    Result.PushStatus.BUFFERED, 3));

    static final EnumCode<Rejection> REJECTION = new EnumCode<>("rejection", Rejection.class, Rejection::code);

    private final String type;
    private final int[] codeByOrdinal;
    private final E[] byCode;

    private EnumCode(String type, Class<E> enumType, Map<E, Integer> codes) {
        this(type, enumType, constant -> {
            Integer code = codes.get(constant);
            if (code == null) {
                throw new IllegalStateException("no stable " + type + " code for " + constant
                        + ": add one to EnumCode");
            }
            return code;
        });
    }

    private EnumCode(String type, Class<E> enumType, ToIntFunction<E> code) {
        this.type = type;
        E[] constants = enumType.getEnumConstants();
        this.codeByOrdinal = new int[constants.length];
        Map<E, Integer> seen = new EnumMap<>(enumType);
        int highest = 0;
        for (E constant : constants) {
            int c = code.applyAsInt(constant);
            if (c < 1 || c > 255) {
                throw new IllegalStateException(type + " " + constant + " has code " + c + ", not in 1..255");
            }
            codeByOrdinal[constant.ordinal()] = c;
            seen.put(constant, c);
            highest = Math.max(highest, c);
        }
        @SuppressWarnings("unchecked")
        E[] table = (E[]) java.lang.reflect.Array.newInstance(enumType, highest + 1);
        for (E constant : constants) {
            int c = seen.get(constant);
            if (table[c] != null) {
                throw new IllegalStateException(type + " code " + c + " is used by " + table[c] + " and " + constant);
            }
            table[c] = constant;
        }
        this.byCode = table;
    }

    void write(ByteSink out, E value) {
        out.writeByte(value == null ? 0 : codeByOrdinal[value.ordinal()]);
    }

    E read(ByteSource in) {
        int code = in.readByte();
        if (code == 0) {
            return null;
        }
        if (code >= byCode.length || byCode[code] == null) {
            throw new CodecException("unknown " + type + " code " + code + " at offset " + (in.position() - 1)
                    + " of " + in.what() + " (was it written by a newer Regina?)");
        }
        return byCode[code];
    }
}
