package io.regina.api;

import reactor.core.publisher.Mono;

/**
 * Who is pushing, when the API authenticates its callers (a bean only then): the subject is stamped
 * as each pushed message's {@code producerSub}, whatever a body says.
 */
public interface ProducerIdentity {

    /** The calling producer's subject; empty when its credentials name none. */
    Mono<String> subject();
}
