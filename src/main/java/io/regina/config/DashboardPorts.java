package io.regina.config;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.dashboard.MessageCounters;
import io.regina.dashboard.PayloadFormat;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard's ports: message counters from Micrometer, payload formatting from Jackson. */
@Configuration(proxyBeanMethods = false)
public class DashboardPorts {

    @Bean
    MessageCounters messageCounters(MeterRegistry registry) {
        return () -> new MessageCounters.Counts(sum(registry, "regina.messages.pushed"),
                sum(registry, "regina.messages.popped"), sum(registry, "regina.messages.acked"));
    }

    private static double sum(MeterRegistry registry, String name) {
        double total = 0;
        for (Counter counter : registry.find(name).counters()) {
            total += counter.count();
        }
        return total;
    }

    @Bean
    PayloadFormat payloadFormat() {
        return new JacksonPayloadFormat();
    }

    /** Payload text through Jackson, keeping numbers as written (no float rounding, no trailing-zero loss). */
    public static final class JacksonPayloadFormat implements PayloadFormat {
        private final JsonMapper json = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();

        @Override
        public String pretty(String text) {
            if (text == null) {
                return "null";
            }
            try {
                return json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(text));
            } catch (JacksonException e) {
                return text;
            }
        }

        @Override
        public String compact(String text) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("empty");
            }
            try {
                JsonNode tree = json.readTree(text);
                if (tree == null || tree.isMissingNode()) {
                    throw new IllegalArgumentException("empty");
                }
                return json.writeValueAsString(tree);
            } catch (JacksonException e) {
                throw new IllegalArgumentException(e.getOriginalMessage(), e);
            }
        }
    }
}
