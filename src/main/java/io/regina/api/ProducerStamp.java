package io.regina.api;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code producerSub} a push writes: the caller's subject when a {@link ProducerIdentity} is
 * configured, else none; an open API pays nothing for it (no lookup, no extra operator).
 */
@Component
class ProducerStamp {
    private final ProducerIdentity identity;

    ProducerStamp(ObjectProvider<ProducerIdentity> identity) {
        this.identity = identity.getIfAvailable();
    }

    /** Runs {@code push} with the subject to stamp (null for none). */
    <T> Mono<T> apply(Function<String, Mono<T>> push) {
        if (identity == null) {
            return push.apply(null);
        }
        return identity.subject().map(Optional::of).defaultIfEmpty(Optional.empty())
                .flatMap(subject -> push.apply(subject.orElse(null)));
    }
}
