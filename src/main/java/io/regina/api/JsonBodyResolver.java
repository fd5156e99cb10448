package io.regina.api;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Binds {@link JsonBody} parameters of the annotated controllers, and publishes the same reader for the
 * hot routes. The reader is made here, not found: WebFlux test slices take this configurer without the
 * application's components.
 */
@Configuration(proxyBeanMethods = false)
class JsonBodyResolver implements WebFluxConfigurer, HandlerMethodArgumentResolver {
    private final JsonBodies bodies;

    JsonBodyResolver(JsonMapper json, @Value("${spring.http.codecs.max-in-memory-size:256KB}") DataSize maxBytes) {
        this.bodies = new JsonBodies(json, maxBytes);
    }

    @Bean
    JsonBodies jsonBodies() {
        return bodies;
    }

    @Override
    public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
        configurer.addCustomResolver(this);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.hasParameterAnnotation(JsonBody.class);
    }

    @Override
    public Mono<Object> resolveArgument(MethodParameter parameter, BindingContext context, ServerWebExchange exchange) {
        JsonBody body = parameter.getParameterAnnotation(JsonBody.class);
        Class<?> type = parameter.getParameterType();
        return (body.optional() ? bodies.readOptional(exchange.getRequest(), type, body.value())
                : bodies.read(exchange.getRequest(), type, body.value())).cast(Object.class);
    }
}
