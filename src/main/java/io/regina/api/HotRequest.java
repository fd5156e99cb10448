package io.regina.api;

import reactor.core.publisher.Mono;

import java.util.Map;

/**
 * What a hot endpoint ({@link HotEndpoints}) reads of its request: the query and the JSON body. Read from
 * Netty's request by {@link HotConnection}, or from Spring's by {@link HotRoutes} for the requests left to it.
 */
interface HotRequest {

    /** The first value of each query parameter, decoded as Spring decodes them. */
    Map<String, String> query();

    /** The body bound to {@code type}, refused as {@link JsonBodies#read} refuses it, naming the body {@code what}. */
    <T> Mono<T> body(Class<T> type, String what);

    /** The connection's {@link NextPops.Slot}; null for a request Spring serves, or with next pops off. */
    NextPops.Slot nextPopSlot();
}
