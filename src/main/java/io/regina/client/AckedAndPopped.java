package io.regina.client;

import java.util.List;

/** The answer of an ack-then-pop: the acknowledgements' outcomes, then the pop ({@link Popped#isEmpty()} for none). */
public record AckedAndPopped(List<Acked> acknowledged, Popped pop) {

    public AckedAndPopped {
        acknowledged = acknowledged == null ? List.of() : List.copyOf(acknowledged);
        pop = pop == null ? Popped.NOTHING : pop;
    }
}
