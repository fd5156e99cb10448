package io.regina.api;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;

import static org.assertj.core.api.Assertions.assertThat;

/** The hot routes are asked before any other mapping, and the endpoints behind those mappings still answer. */
class HandlerOrderIT extends RunningBroker {

    @Autowired
    DispatcherHandler dispatcher;

    @Test
    void hotRoutesAreAskedFirstAndEverythingElseStillAnswers() {
        assertThat(dispatcher.getHandlerMappings()).first().isInstanceOf(RouterFunctionMapping.class);

        assertThat(status("/actuator/health")).isEqualTo(200);
        assertThat(status("/api/v1/resources/queues")).isEqualTo(200);
        assertThat(http.put().uri("/api/v1/push").exchange().returnResult(byte[].class).getStatus().value())
                .isEqualTo(405);
        post("/api/v1/push", "{\"items\":[{\"queue\":\"handler-order\",\"payload\":{\"n\":1}}]}", 201);
        assertThat(get("/api/v1/pop/queue/handler-order?batch=1", 200).path("messages")).hasSize(1);
    }
}
