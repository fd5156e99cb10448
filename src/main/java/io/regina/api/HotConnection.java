package io.regina.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.ReferenceCountUtil;
import org.reactivestreams.Subscription;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves the hot endpoints ({@link HotEndpoints}) of one HTTP/1.1 connection straight from Netty's pipeline,
 * ahead of Reactor Netty's traffic handler: the request is read into bytes, the endpoint called, its answer
 * written as one JSON response. A profile of the 32-worker empty-jobs lane put a quarter of the event
 * loops' CPU in Reactor's operators, Reactor Netty's per-request operations and Spring's request and
 * response adapters around endpoints that do one thing each.
 *
 * <p>Everything else passes on untouched, to be served by Reactor Netty and Spring as before (the hot paths
 * by {@link HotRoutes}): what {@link HotPaths} leaves to Spring, HTTP/1.0, an {@code Expect} header, a
 * chunked body or one longer than {@link JsonBodies#maxBytes()}, a content type that does not parse, a
 * request the decoder failed, and any request read while one passed on is unanswered, so that answers
 * keep the order of their requests. A request read while one served here is unanswered waits here, and
 * no more is read, until that answer is written (pipelining). Only the connection's event loop touches the
 * state; answers that complete elsewhere are handed to it.
 */
final class HotConnection extends ChannelDuplexHandler {
    static final String NAME = "regina.hotConnection";

    private final HotPaths paths;
    private final JsonBodies bodies;
    private final JsonMapper json;
    private final ApiErrors errors;
    private final NextPops nextPops;

    /** This connection's worker loop, once a request is served here. */
    private NextPops.Slot slot;
    private final RepeatedQuery queries = new RepeatedQuery();
    /** Requests passed on whose answer Reactor Netty has not fully written. */
    private int passedOn;
    /** The request being read or served here, if any. */
    private Exchange exchange;
    /** What was read while {@link #exchange} is served, in order. */
    private ArrayDeque<Object> waiting;
    private boolean closing;

    HotConnection(HotPaths paths, JsonBodies bodies, JsonMapper json, ApiErrors errors, NextPops nextPops) {
        this.paths = paths;
        this.bodies = bodies;
        this.json = json;
        this.errors = errors;
        this.nextPops = nextPops;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (exchange != null && exchange.served) {
            hold(msg);
            return;
        }
        if (exchange == null && msg instanceof HttpRequest request) {
            exchange = take(request);
            if (exchange == null) {
                passedOn++;
            }
        }
        if (exchange == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof HttpContent content) {
            try {
                exchange.append(content.content());
            } finally {
                content.release();
            }
            if (msg instanceof LastHttpContent) {
                serve(ctx, exchange);
            }
        }
    }

    /**
     * Reactor Netty reads with auto-read off, asking for each read: the rest of a body read here is asked
     * for here (the decoder asks by itself only when a read brought no whole message). While a request is
     * served here the next read is asked too, until something arrives: Netty's epoll transport stops
     * watching a socket that no read was asked of when a read ends, and watches it again at the next ask,
     * an {@code epoll_ctl} call each, two a request of a worker that waits for each answer before its next
     * request. What arrives meanwhile (a pipelined request) waits here, and then no more is asked.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (exchange != null && (!exchange.served || waiting == null)) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    /**
     * No reading asked by the handlers behind this one while a request is served here: what arrives
     * meanwhile would only wait (backpressure; see {@link #channelReadComplete}).
     */
    @Override
    public void read(ChannelHandlerContext ctx) {
        if (exchange == null || !exchange.served) {
            ctx.read();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        boolean interim = msg instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (msg instanceof LastHttpContent && !interim && passedOn > 0) {
            passedOn--;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        if (exchange != null && exchange.subscription != null) {
            exchange.subscription.dispose(); // a parked long-poll stops waiting for a client that left
        }
        exchange = null;
        release(waiting);
        waiting = null;
        nextPops.close(slot);
        ctx.fireChannelInactive();
    }

    /** The exchange this request starts when it is served here, or null to pass it on. */
    private Exchange take(HttpRequest request) {
        if (passedOn > 0 || !request.decoderResult().isSuccess() || request.protocolVersion() != HttpVersion.HTTP_1_1) {
            return null;
        }
        HttpHeaders headers = request.headers();
        if (headers.contains(HttpHeaderNames.EXPECT) || HttpUtil.isTransferEncodingChunked(request)) {
            return null;
        }
        long length;
        MediaType contentType;
        try {
            length = HttpUtil.getContentLength(request, 0L);
            String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
            contentType = type == null ? null
                    : type.equals("application/json") ? MediaType.APPLICATION_JSON : MediaType.parseMediaType(type);
        } catch (NumberFormatException | InvalidMediaTypeException e) {
            return null;
        }
        if (length < 0 || length > bodies.maxBytes()) {
            return null;
        }
        List<String> accepts = headers.getAll(HttpHeaderNames.ACCEPT);
        String accept = accepts.isEmpty() ? null : String.join(",", accepts);
        Map<String, String> variables = new HashMap<>(4);
        HotPaths.Route route = paths.match(request.method().name(), request.uri(), accept, variables);
        if (route == null) {
            return null;
        }
        try {
            return new Exchange(route.endpoint(), variables, HotPaths.rawQuery(request.uri()), contentType,
                    HttpUtil.isKeepAlive(request), (int) length);
        } catch (OutOfMemoryError e) {
            return null; // no room for the body now: Spring's path reads it in pieces and answers 429 if it must
        }
    }

    private void serve(ChannelHandlerContext ctx, Exchange served) {
        served.served = true;
        if (slot == null) {
            slot = nextPops.slot(ctx.executor());
        }
        HotRequest request = served.request(bodies, slot, queries.of(served.rawQuery));
        Answer answer = new Answer(ctx, served);
        served.subscription = answer;
        try {
            served.endpoint.serve().serve(request, served.variables).subscribe(answer);
        } catch (OutOfMemoryError e) {
            // Reactor rethrows a JVM error from where it happened instead of signalling it: answered here,
            // or the client would get no answer at all
            answered(ctx, served, errors.answer(MemoryWatermark.outOfHeap()));
        } catch (RuntimeException e) {
            answer.onError(e); // thrown before the endpoint's answer was subscribed to
        }
    }

    /**
     * Writes what the endpoint answers: its response, {@code 200} with no body when it completes empty, its
     * error as {@link ApiErrors} words it. One subscriber where {@code defer}, {@code map},
     * {@code switchIfEmpty}, {@code onErrorResume} and a lambda subscriber were five operators a request;
     * cancelled when the connection closes (a parked long-poll stops waiting for a client that left).
     */
    private final class Answer implements CoreSubscriber<ResponseEntity<?>>, Disposable {
        private final ChannelHandlerContext ctx;
        private final Exchange served;
        private volatile Subscription upstream;
        private volatile boolean cancelled;
        private boolean done;

        Answer(ChannelHandlerContext ctx, Exchange served) {
            this.ctx = ctx;
            this.served = served;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            if (cancelled) {
                subscription.cancel();
            } else {
                subscription.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(ResponseEntity<?> answer) {
            if (!done) {
                done = true;
                answered(ctx, served, answer);
            }
        }

        @Override
        public void onError(Throwable error) {
            if (!done) {
                done = true;
                answered(ctx, served, errors.answer(error instanceof OutOfMemoryError
                        ? MemoryWatermark.outOfHeap() : error));
            }
        }

        @Override
        public void onComplete() {
            if (!done) {
                done = true;
                answered(ctx, served, ResponseEntity.ok().build());
            }
        }

        @Override
        public void dispose() {
            cancelled = true;
            Subscription subscription = upstream;
            if (subscription != null) {
                subscription.cancel();
            }
        }

        @Override
        public boolean isDisposed() {
            return cancelled;
        }
    }

    private void answered(ChannelHandlerContext ctx, Exchange served, ResponseEntity<?> answer) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> answered(ctx, served, answer));
            return;
        }
        if (served != exchange) {
            return; // the connection closed meanwhile
        }
        exchange = null;
        FullHttpResponse response = response(answer, ctx.alloc(), !served.keepAlive);
        if (!served.keepAlive) {
            closing = true;
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            release(waiting);
            waiting = null;
            return;
        }
        ctx.writeAndFlush(response, ctx.voidPromise());
        resume(ctx);
    }

    private FullHttpResponse response(ResponseEntity<?> answer, ByteBufAllocator allocator, boolean close) {
        ByteBuf body;
        try {
            body = answer.getBody() == null ? Unpooled.EMPTY_BUFFER : body(answer.getBody(), allocator);
        } catch (OutOfMemoryError e) {
            return response(errors.answer(MemoryWatermark.outOfHeap()), allocator, close);
        } catch (RuntimeException e) {
            return response(errors.answer(e), allocator, close);
        }
        HttpResponseStatus status = HttpResponseStatus.valueOf(answer.getStatusCode().value());
        HttpHeaders headers = headers(answer.getBody() != null, body.readableBytes(), close);
        if (bodilessByStatus(status)) {
            headers = new DefaultHttpHeaders().add(headers);
        }
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, headers, EmptyHttpHeaders.INSTANCE);
    }

    /** A status whose answer Netty's encoder strips of its length headers, which it must then be able to change. */
    private static boolean bodilessByStatus(HttpResponseStatus status) {
        int code = status.code();
        return status.codeClass() == HttpStatusClass.INFORMATIONAL || code == 204 || code == 205 || code == 304;
    }

    /**
     * An answer's two or three headers in an array: Netty's default headers are a hash table of 16 buckets,
     * and a response made without headers gets a second one for its trailers.
     */
    private static HttpHeaders headers(boolean json, int contentLength, boolean close) {
        CharSequence[] pairs = new CharSequence[(json ? 2 : 0) + 2 + (close ? 2 : 0)];
        int at = 0;
        if (json) {
            pairs[at++] = HttpHeaderNames.CONTENT_TYPE;
            pairs[at++] = HttpHeaderValues.APPLICATION_JSON;
        }
        pairs[at++] = HttpHeaderNames.CONTENT_LENGTH;
        pairs[at++] = Integer.toString(contentLength);
        if (close) {
            pairs[at++] = HttpHeaderNames.CONNECTION;
            pairs[at] = HttpHeaderValues.CLOSE;
        }
        return new ReadOnlyHttpHeaders(false, pairs);
    }

    /** The answer's JSON, written by hand for the hot answers ({@link AnswerJson}), by Jackson for the rest. */
    private ByteBuf body(Object answer, ByteBufAllocator allocator) {
        ByteBuf written = AnswerJson.write(answer, allocator);
        return written != null ? written : Unpooled.wrappedBuffer(json.writeValueAsBytes(answer));
    }

    private void hold(Object msg) {
        if (waiting == null) {
            waiting = new ArrayDeque<>();
        }
        waiting.add(msg);
    }

    /**
     * Reads on: first what waited for the answer just written, through {@link #channelRead} in order, then
     * from the socket unless a request read meanwhile is being served here.
     */
    private void resume(ChannelHandlerContext ctx) {
        replayWaiting(ctx);
        if (exchange == null || !exchange.served) {
            ctx.read();
        }
    }

    private void replayWaiting(ChannelHandlerContext ctx) {
        if (waiting == null) {
            return;
        }
        ArrayDeque<Object> held = waiting;
        waiting = null;
        while (!held.isEmpty()) {
            channelRead(ctx, held.poll());
        }
    }

    private static void release(ArrayDeque<Object> messages) {
        if (messages != null) {
            messages.forEach(ReferenceCountUtil::release);
        }
    }

    /** One request served here: what its line said, its body as it arrives, its answer's subscription. */
    private static final class Exchange {
        private final HotEndpoints.Endpoint endpoint;
        private final Map<String, String> variables;
        private final String rawQuery;
        private final MediaType contentType;
        private final boolean keepAlive;
        private final byte[] body;
        private int received;
        private boolean served;
        private Disposable subscription;

        Exchange(HotEndpoints.Endpoint endpoint, Map<String, String> variables, String rawQuery,
                 MediaType contentType, boolean keepAlive, int length) {
            this.endpoint = endpoint;
            this.variables = variables;
            this.rawQuery = rawQuery;
            this.contentType = contentType;
            this.keepAlive = keepAlive;
            this.body = length == 0 ? EMPTY : new byte[length];
        }

        private static final byte[] EMPTY = new byte[0];

        /** The decoder frames the body by its Content-Length, so it never brings more than that. */
        void append(ByteBuf content) {
            int n = Math.min(content.readableBytes(), body.length - received);
            content.readBytes(body, received, n);
            received += n;
        }

        HotRequest request(JsonBodies bodies, NextPops.Slot slot, Map<String, String> query) {
            return new HotRequest() {
                @Override
                public Map<String, String> query() {
                    return query;
                }

                @Override
                public <T> Mono<T> body(Class<T> type, String what) {
                    return bodies.read(body, contentType, type, what);
                }

                @Override
                public NextPops.Slot nextPopSlot() {
                    return slot;
                }
            };
        }
    }
}
