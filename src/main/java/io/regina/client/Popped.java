package io.regina.client;

import java.util.List;

/**
 * A pop's answer: the messages under one lease ({@code leaseId}), empty when nothing came before the
 * timeout (the broker's 204). The top-level fields describe the first partition claimed.
 */
public record Popped(String queue, String partition, String partitionId, String leaseId, String consumerGroup,
                     List<Message> messages, int partitionsClaimed) {

    /** No messages: what a pop answers when nothing came. */
    public static final Popped NOTHING = new Popped(null, null, null, null, null, List.of(), 0);

    public Popped {
        messages = messages == null ? List.of() : List.copyOf(messages);
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }
}
