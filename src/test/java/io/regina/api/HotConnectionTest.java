package io.regina.api;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.util.unit.DataSize;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hot connection handler in a Netty pipeline of its own: behind it a stand-in for Reactor Netty that
 * records what was passed on and answers when told. Which requests it serves, in which order the answers
 * leave when requests are pipelined, and what happens when the client goes away.
 */
class HotConnectionTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Answers of /wait requests, completed by the test, in the order they were asked. */
    private final List<Sinks.One<ResponseEntity<?>>> pending = new ArrayList<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Object> passedOn = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    /** Reads asked of the socket, as Reactor Netty's auto-read-off pipeline asks for each. */
    private final AtomicInteger reads = new AtomicInteger();

    HotConnectionTest() {
        HotEndpoints.Serve echoQuery = (request, variables) -> Mono.just(ResponseEntity.ok(
                Map.of("queue", variables.get("queue"), "query", request.query())));
        HotEndpoints.Serve waits = (request, variables) -> {
            Sinks.One<ResponseEntity<?>> answer = Sinks.one();
            pending.add(answer);
            return answer.asMono().doOnCancel(() -> cancelled.set(true));
        };
        HotEndpoints.Serve push = (request, variables) -> request.body(Map.class, "push")
                .map(body -> ResponseEntity.status(HttpStatus.CREATED).body(body));
        HotEndpoints.Serve refuses = (request, variables) -> Mono.error(ApiException.badRequest("no such thing"));
        HotEndpoints.Serve outOfHeap = (request, variables) -> Mono.fromSupplier(() -> {
            throw new OutOfMemoryError("Java heap space");
        });
        HotPaths paths = new HotPaths(List.of(
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.GET, "/pop/{queue}", echoQuery),
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.GET, "/wait", waits),
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.POST, "/push", push),
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.POST, "/refuse", refuses),
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.GET, "/full", outOfHeap),
                new HotEndpoints.Endpoint(org.springframework.http.HttpMethod.GET, "/full-later",
                        (request, variables) -> Mono.error(new OutOfMemoryError("Java heap space")))));
        channel.config().setAutoRead(false);
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads.incrementAndGet();
            }
        });
        channel.pipeline().addLast(new HotConnection(paths, new JsonBodies(JSON, DataSize.ofBytes(64)), JSON,
                new ApiErrors(), new NextPops(null, null, null, new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), false, 0, 0)));
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                passedOn.add(msg instanceof HttpRequest request ? request.method() + " " + request.uri() : msg);
            }
        });
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void servesAHotRequestItselfAsJson() {
        read(get("/pop/emails?batch=2&wait=false&group=a%20b"));
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(answer.headers().get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo("application/json");
        assertThat(JSON.readTree(body(answer))).isEqualTo(JSON.readTree(
                "{\"queue\":\"emails\",\"query\":{\"batch\":\"2\",\"wait\":\"false\",\"group\":\"a b\"}}"));
        assertThat(answer.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(answer.content().readableBytes());
        assertThat(passedOn).isEmpty();
        ReferenceCountUtil.release(answer);
    }

    @Test
    void asksForTheRestOfABodyAndForTheNextRequestOnceAnswered() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/push");
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json").setInt(HttpHeaderNames.CONTENT_LENGTH, 2);
        reads.set(0);
        channel.writeInbound(request, new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[] {'{'})));
        assertThat(reads).as("the rest of the body").hasValue(1);
        channel.writeInbound(new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[] {'}'})));
        assertThat(reads).as("the next request, once answered").hasValue(2);
        ReferenceCountUtil.release(channel.readOutbound());

        read(get("/wait"));
        assertThat(reads).as("the socket still watched while the answer is outstanding").hasValue(3);
        pending.get(0).tryEmitValue(ResponseEntity.ok(Map.of("n", 1)));
        assertThat(reads).hasValue(4);
        ReferenceCountUtil.release(channel.readOutbound());
    }

    @Test
    void asksNoMoreOnceAPipelinedRequestWaitsForAnAnswer() {
        read(get("/wait"));
        reads.set(0);
        read(get("/pop/pipelined"));
        assertThat(reads).as("nothing asked while a request waits behind the outstanding answer").hasValue(0);
        channel.read();
        assertThat(reads).as("nor for the handlers behind").hasValue(0);
        assertThat(channel.<Object>readOutbound()).isNull();

        pending.get(0).tryEmitValue(ResponseEntity.ok(Map.of("n", 1)));
        assertThat(body(channel.readOutbound())).isEqualTo("{\"n\":1}");
        assertThat(JSON.readTree(body(channel.readOutbound())).get("queue").asString()).isEqualTo("pipelined");
        assertThat(reads).as("reading on once both are answered").hasPositiveValue();
    }

    @Test
    void bindsABodyThatArrivesInPiecesAndAnswersRefusalsAsTheApiDoes() {
        byte[] body = "{\"items\":[1,2]}".getBytes(StandardCharsets.UTF_8);
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/push");
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json").setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        channel.writeInbound(request, new DefaultHttpContent(Unpooled.wrappedBuffer(body, 0, 5)),
                new DefaultLastHttpContent(Unpooled.wrappedBuffer(body, 5, body.length - 5)));
        FullHttpResponse created = channel.readOutbound();
        assertThat(created.status()).isEqualTo(HttpResponseStatus.CREATED);
        assertThat(body(created)).isEqualTo("{\"items\":[1,2]}");

        read(post("/push", "text/plain", "{}"));
        FullHttpResponse unsupported = channel.readOutbound();
        assertThat(unsupported.status()).isEqualTo(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE);
        read(post("/push", "application/json", "{\"items\":"));
        FullHttpResponse malformed = channel.readOutbound();
        assertThat(malformed.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
        read(post("/refuse", "application/json", "{}"));
        FullHttpResponse refused = channel.readOutbound();
        assertThat(refused.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
        assertThat(JSON.readTree(body(refused)).get("error").asString()).isEqualTo("no such thing");
        assertThat(passedOn).isEmpty();
        List.of(created, unsupported, malformed, refused).forEach(ReferenceCountUtil::release);
    }

    @Test
    void aRequestThatRunsOutOfHeapIsAnswered429() {
        read(get("/full"));
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.status()).isEqualTo(HttpResponseStatus.TOO_MANY_REQUESTS);
        assertThat(JSON.readTree(body(answer)).get("code").asString()).isEqualTo("MEMORY_FULL");
        ReferenceCountUtil.release(answer);
        read(get("/full-later"));
        FullHttpResponse signalled = channel.readOutbound();
        assertThat(signalled.status()).as("an out-of-heap error signalled, not thrown")
                .isEqualTo(HttpResponseStatus.TOO_MANY_REQUESTS);
        ReferenceCountUtil.release(signalled);
        read(get("/pop/next"));
        assertThat(JSON.readTree(body(channel.readOutbound())).get("queue").asString()).isEqualTo("next");
    }

    @Test
    void passesOnWhatItDoesNotServe() {
        read(get("/elsewhere"));
        read(new DefaultHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/pop/q"), LastHttpContent.EMPTY_LAST_CONTENT);
        HttpRequest expect = get("/pop/q");
        expect.headers().set(HttpHeaderNames.EXPECT, "100-continue");
        read(expect, LastHttpContent.EMPTY_LAST_CONTENT);
        HttpRequest chunked = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/push");
        chunked.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "chunked");
        read(chunked, LastHttpContent.EMPTY_LAST_CONTENT);
        read(post("/push", "application/json", "{\"items\":[\"" + "x".repeat(64) + "\"]}"));
        read(post("/push", "application json", "{}"));
        assertThat(channel.<Object>readOutbound()).isNull();
        assertThat(passedOn).filteredOn(String.class::isInstance).containsExactly("GET /elsewhere", "GET /pop/q",
                "GET /pop/q", "POST /push", "POST /push", "POST /push");
        passedOn.forEach(ReferenceCountUtil::release);
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheirOrder() {
        read(get("/wait"));
        read(get("/pop/second"));
        read(get("/elsewhere"));
        read(get("/pop/fourth"));
        assertThat(channel.<Object>readOutbound()).isNull();
        assertThat(passedOn).isEmpty();
        reads.set(0);
        channel.read();
        assertThat(reads).as("no reading while an answer is outstanding").hasValue(0);

        pending.get(0).tryEmitValue(ResponseEntity.ok(Map.of("n", 1)));
        assertThat(body(channel.readOutbound())).isEqualTo("{\"n\":1}");
        assertThat(JSON.readTree(body(channel.readOutbound())).get("queue").asString()).isEqualTo("second");
        // the third goes on to Spring; the fourth, hot, waits behind its answer and goes the same way
        assertThat(passedOn).filteredOn(String.class::isInstance).containsExactly("GET /elsewhere", "GET /pop/fourth");
        assertThat(channel.<Object>readOutbound()).isNull();

        answerFromSpring();
        answerFromSpring();
        read(get("/pop/fifth"));
        assertThat(JSON.readTree(body(channel.readOutbound())).get("queue").asString())
                .as("served here again once Spring's answers are written").isEqualTo("fifth");
    }

    @Test
    void aHotRequestBehindOneSpringStillAnswersGoesToSpring() {
        read(get("/elsewhere"));
        read(get("/pop/q"));
        assertThat(passedOn).filteredOn(String.class::isInstance).containsExactly("GET /elsewhere", "GET /pop/q");
        assertThat(channel.<Object>readOutbound()).isNull();
    }

    @Test
    void closesAfterAnsweringARequestThatAsksIt() {
        HttpRequest last = get("/pop/q");
        last.headers().set(HttpHeaderNames.CONNECTION, "close");
        read(last, LastHttpContent.EMPTY_LAST_CONTENT);
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(channel.isOpen()).isFalse();
        ReferenceCountUtil.release(answer);
    }

    @Test
    void aClientThatLeavesCancelsItsWaitingRequest() {
        read(get("/wait"));
        read(get("/pop/queued-behind"));
        channel.close();
        assertThat(cancelled).isTrue();
        pending.get(0).tryEmitValue(ResponseEntity.ok(Map.of("n", 1)));
        assertThat(channel.<Object>readOutbound()).isNull();
    }

    private void answerFromSpring() {
        FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        channel.writeOutbound(answer);
        ReferenceCountUtil.release(channel.readOutbound());
    }

    private void read(Object... messages) {
        channel.writeInbound(messages);
    }

    private void read(HttpRequest request) {
        read(request, LastHttpContent.EMPTY_LAST_CONTENT);
    }

    private static HttpRequest get(String uri) {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
    }

    private void read(FullPost post) {
        read(post.request, new DefaultLastHttpContent(Unpooled.wrappedBuffer(post.body)));
    }

    private static FullPost post(String uri, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri);
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        return new FullPost(request, bytes);
    }

    private record FullPost(HttpRequest request, byte[] body) {
    }

    private static String body(Object response) {
        FullHttpResponse full = (FullHttpResponse) response;
        return full.content().toString(StandardCharsets.UTF_8);
    }
}
