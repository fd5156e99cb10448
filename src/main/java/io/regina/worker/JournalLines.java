package io.regina.worker;

import io.regina.client.Ack;
import io.regina.client.Message;
import io.regina.client.Popped;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** The {@link Journal} as one JSON object per line on a stream, flushed line by line; thread-safe. */
public final class JournalLines implements Journal {
    private final OutputStream out;
    private final JsonMapper json;
    private final long pid = ProcessHandle.current().pid();

    public JournalLines(OutputStream out, JsonMapper json) {
        this.out = out;
        this.json = json;
    }

    @Override
    public void leased(Popped popped) {
        ObjectNode line = line("leased", popped.leaseId());
        var jobs = line.putArray("jobs");
        for (Message m : popped.messages()) {
            jobs.addObject().put("transactionId", m.transactionId()).put("partitionId", m.partitionId())
                    .put("consumerGroup", m.consumerGroup()).put("attempts", m.attempts());
        }
        write(line);
    }

    @Override
    public void started(Message message) {
        write(line("started", message.leaseId()).put("transactionId", message.transactionId())
                .put("partitionId", message.partitionId()).put("attempt", message.attempts()));
    }

    @Override
    public void finished(Message message, Ack ack) {
        ObjectNode line = line("finished", message.leaseId()).put("transactionId", message.transactionId());
        line.set("ack", json.valueToTree(ack));
        write(line);
    }

    @Override
    public void acked(Ack ack) {
        write(line("acked", ack.leaseId()).put("transactionId", ack.transactionId()));
    }

    @Override
    public void done(String leaseId) {
        write(line("done", leaseId));
    }

    private ObjectNode line(String event, String leaseId) {
        return json.createObjectNode().put("event", event).put("leaseId", leaseId).put("pid", pid)
                .put("at", Instant.now().toString());
    }

    private synchronized void write(ObjectNode line) {
        try {
            out.write((json.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // a supervisor that cannot read the journal cannot hand back for this worker: stop it loudly
            throw new UncheckedIOException("cannot write the worker journal", e);
        }
    }
}
