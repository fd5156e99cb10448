package io.regina.api;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Binds {@link JsonBody} parameters of the annotated controllers through the same reader as the hot routes. */
@Configuration(proxyBeanMethods = false)
class JsonBodyResolver implements WebFluxConfigurer, HandlerMethodArgumentResolver {
    private final JsonBodies bodies;

    JsonBodyResolver(JsonBodies bodies) {
        this.bodies = bodies;
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
