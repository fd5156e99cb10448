package io.regina.dashboard;

import org.springframework.core.Ordered;
import org.springframework.web.reactive.result.view.View;
import org.springframework.web.reactive.result.view.ViewResolver;
import reactor.core.publisher.Mono;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sits in front of the real Thymeleaf resolver in slice tests and records the view name and model
 * each request rendered, so tests assert on them while the real templates still render.
 */
final class RecordingViewResolver implements ViewResolver, Ordered {

    /** What one request rendered. */
    record Rendered(String view, Map<String, Object> model) {
        Object get(String name) {
            return model.get(name);
        }
    }

    private final ViewResolver delegate;
    private volatile Rendered last;

    RecordingViewResolver(ViewResolver delegate) {
        this.delegate = delegate;
    }

    Rendered last() {
        return last;
    }

    void reset() {
        last = null;
    }

    @Override
    public Mono<View> resolveViewName(String viewName, Locale locale) {
        return delegate.resolveViewName(viewName, locale).map(view -> {
            if (view.isRedirectView()) {
                last = new Rendered(viewName, Map.of());
                return view;
            }
            return new View() {
                @Override
                public Mono<Void> render(Map<String, ?> model, org.springframework.http.MediaType contentType,
                                         org.springframework.web.server.ServerWebExchange exchange) {
                    last = new Rendered(viewName, model == null ? Map.of() : new LinkedHashMap<>(model));
                    return view.render(model, contentType, exchange);
                }

                @Override
                public java.util.List<org.springframework.http.MediaType> getSupportedMediaTypes() {
                    return view.getSupportedMediaTypes();
                }
            };
        });
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
