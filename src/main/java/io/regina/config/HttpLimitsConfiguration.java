package io.regina.config;

import io.regina.api.ApiCode;
import io.regina.api.dto.ErrorResponse;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.NettyPipeline;
import tools.jackson.databind.json.JsonMapper;

/** Netty's request size limits answered as API errors ({@link OversizeRequests}) on every HTTP/1.1 connection. */
@Configuration(proxyBeanMethods = false)
class HttpLimitsConfiguration {

    @Bean
    NettyServerCustomizer oversizeRequestAnswers(JsonMapper json) {
        byte[] line = json.writeValueAsBytes(new ErrorResponse("The request line is too long (see "
                + "server.netty.max-initial-line-length); send long values in a JSON body, not in the path or query",
                ApiCode.URI_TOO_LONG.name()));
        byte[] headers = json.writeValueAsBytes(new ErrorResponse("The request headers are too large (see "
                + "server.max-http-request-header-size)", ApiCode.HEADERS_TOO_LARGE.name()));
        return server -> server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, OversizeRequests.NAME,
                        new OversizeRequests(line, headers));
            }
        });
    }
}
