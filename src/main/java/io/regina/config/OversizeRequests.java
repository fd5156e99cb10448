package io.regina.config;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.TimeUnit;

/**
 * Answers a request that Netty's HTTP decoder refused for its size: 414 for the request line, 431 for
 * the headers, each with the API's JSON error body (Reactor Netty's own answer has none). It then closes
 * gracefully: the answer is followed by a half-close, and the rest of the request, which the client is
 * likely still sending, is read and dropped (the decoder discards it) until the client closes or
 * {@link #LINGER_SECONDS} pass. Closing at once, with the request's rest unread, makes the kernel reset
 * the connection, and the client loses the answer.
 *
 * <p>Sits right after the HTTP codec, before Reactor Netty's traffic handler, which never sees the refused
 * request; every other message passes through untouched. When a refused request comes while an earlier
 * one on the connection (pipelined) is still unanswered, writing now would cut into that answer, so
 * the refusal is left to Reactor Netty, which orders it after (with its own empty body).
 */
final class OversizeRequests extends ChannelDuplexHandler {
    static final String NAME = "regina.oversizeRequests";
    private static final long LINGER_SECONDS = 5;

    private final byte[] lineTooLong;
    private final byte[] headersTooLarge;
    private boolean answered;
    /** Requests read whose answer is not fully written yet (only this connection's event loop touches it). */
    private int unanswered;

    OversizeRequests(byte[] lineTooLong, byte[] headersTooLarge) {
        this.lineTooLong = lineTooLong;
        this.headersTooLarge = headersTooLarge;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (answered) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request && unanswered == 0
                && request.decoderResult().cause() instanceof TooLongFrameException e
                && (e instanceof TooLongHttpLineException || e instanceof TooLongHttpHeaderException)) {
            ReferenceCountUtil.release(msg);
            answered = true;
            answer(ctx, e instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                    e instanceof TooLongHttpLineException ? lineTooLong : headersTooLarge);
            return;
        }
        if (msg instanceof HttpRequest) {
            unanswered++;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        boolean interim = msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (msg instanceof LastHttpContent && !interim && unanswered > 0) {
            unanswered--;
        }
        ctx.write(msg, promise);
    }

    private static void answer(ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.channel().config().setAutoRead(true);
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) written -> {
            if (written.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
                written.channel().eventLoop().schedule(() -> written.channel().close(), LINGER_SECONDS,
                        TimeUnit.SECONDS);
            } else {
                written.channel().close();
            }
        });
    }
}
