package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordCreatorsTest {
    private static final String ACKS = "{\"acknowledgments\":[{\"transactionId\":\"t1\",\"partitionId\":\"p1\","
            + "\"leaseId\":\"l1\",\"status\":\"failed\",\"error\":\"boom\",\"delayMs\":5},{\"transactionId\":\"t2\"}],"
            + "\"consumerGroup\":\"g\"}";

    private final JsonMapper plain = JsonMapper.builder().build();
    private final JsonMapper spread = JsonMapper.builder()
            .addModule(new SimpleModule("records").setValueInstantiators(new RecordCreators())).build();

    @Test
    void bindsWhatJacksonBindsThroughItsOwnHandle() {
        Built.calledFrom = null;
        assertThat(spread.readValue(ACKS, AckBatchRequest.class)).isEqualTo(plain.readValue(ACKS, AckBatchRequest.class));
        assertThat(spread.readValue("{\"name\":\"a\",\"count\":3,\"tags\":[\"x\"]}", Built.class))
                .isEqualTo(new Built("a", 3, List.of("x")));
        assertThat(Built.calledFrom).anyMatch(frame -> frame.startsWith(RecordCreators.class.getName()))
                .noneMatch(frame -> frame.contains("invokeWithArguments"));
    }

    @Test
    void aConstructorThatThrowsIsReportedAsJacksonReportsIt() {
        String body = "{\"name\":\"\",\"count\":1}";
        Throwable jacksons = catchThrowable(() -> plain.readValue(body, Built.class));
        assertThatThrownBy(() -> spread.readValue(body, Built.class))
                .isInstanceOf(jacksons.getClass()).isInstanceOf(DatabindException.class)
                .hasMessage(jacksons.getMessage())
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
    }

    private static Throwable catchThrowable(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("no exception");
    }

    record Built(String name, int count, List<String> tags) {
        static List<String> calledFrom;

        Built {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a name is needed");
            }
            calledFrom = Arrays.stream(new Throwable().getStackTrace())
                    .map(frame -> frame.getClassName() + "." + frame.getMethodName()).toList();
        }
    }
}
