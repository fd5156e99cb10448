package io.regina.api;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Puts a {@link HotConnection} in front of Reactor Netty's traffic handler on every HTTP/1.1 connection.
 * Installed only while API authentication is off: with {@code regina.auth.enabled} Spring Security must
 * see every request.
 */
@Component
@ConditionalOnProperty(name = "regina.auth.enabled", havingValue = "false", matchIfMissing = true)
final class HotConnections implements NettyServerCustomizer {
    private final HotPaths paths;
    private final JsonBodies bodies;
    private final JsonMapper json;
    private final ApiErrors errors;
    private final NextPops nextPops;

    HotConnections(HotEndpoints endpoints, JsonBodies bodies, JsonMapper json, ApiErrors errors, NextPops nextPops) {
        this.paths = new HotPaths(endpoints.all());
        this.bodies = bodies;
        this.json = json;
        this.errors = errors;
        this.nextPops = nextPops;
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpTrafficHandler) != null) {
                channel.pipeline().addBefore(NettyPipeline.HttpTrafficHandler, HotConnection.NAME,
                        new HotConnection(paths, bodies, json, errors, nextPops));
            }
        });
    }
}
