package io.regina.testing;

import io.regina.queue.BrokerState;
import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/** Writes a {@link BrokerState} to bytes through a plain {@link DataOutputStream} and reads it back. */
public final class Snapshots {

    private Snapshots() {
    }

    public static byte[] bytes(BrokerState state) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        state.writeTo(new DataStateWriter(out));
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    /**
     * The image as a snapshot writes it: captured, then {@code meanwhile} runs (applies after the
     * capture), then the captured tail is appended.
     */
    public static byte[] captured(BrokerState state, Runnable meanwhile) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        DataStateWriter writer = new DataStateWriter(out);
        Consumer<StateWriter> rest = state.captureTo(writer);
        meanwhile.run();
        rest.accept(writer);
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    public static BrokerState read(byte[] bytes) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        BrokerState state = BrokerState.readFrom(new DataStateReader(in));
        try {
            if (in.available() != 0) {
                throw new IllegalStateException(in.available() + " bytes left after reading the state");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return state;
    }

    /** The state written and read back: what a node has after loading a snapshot. */
    public static BrokerState reload(BrokerState state) {
        return read(bytes(state));
    }

    private record DataStateWriter(DataOutputStream out) implements StateWriter {
        @Override
        public void writeInt(int value) {
            run(() -> out.writeInt(value));
        }

        @Override
        public void writeLong(long value) {
            run(() -> out.writeLong(value));
        }

        @Override
        public void writeBoolean(boolean value) {
            run(() -> out.writeBoolean(value));
        }

        @Override
        public void writeString(String value) {
            run(() -> {
                out.writeBoolean(value != null);
                if (value != null) {
                    out.writeUTF(value);
                }
            });
        }
    }

    private record DataStateReader(DataInputStream in) implements StateReader {
        @Override
        public int readInt() {
            return call(in::readInt);
        }

        @Override
        public long readLong() {
            return call(in::readLong);
        }

        @Override
        public boolean readBoolean() {
            return call(in::readBoolean);
        }

        @Override
        public String readString() {
            return call(() -> in.readBoolean() ? in.readUTF() : null);
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private interface IoCall<T> {
        T call() throws IOException;
    }

    private static void run(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T call(IoCall<T> call) {
        try {
            return call.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
