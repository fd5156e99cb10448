package io.regina.api;

import io.regina.api.dto.QueueOptionsBody;
import io.regina.queue.QueueOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueOptionsJsonTest {
    @Test
    void absentOptionsAreTheDefaultsAndWrittenOptionsReadBack() {
        assertThat(QueueOptionsJson.read(null)).isEqualTo(QueueOptions.defaults());
        QueueOptions options = QueueOptionsJson.read(new QueueOptionsBody(5L, null, null, null, null, true, null,
                -3L, null, null, null, null, null, null, null, 4L));
        assertThat(options.leaseTime()).isEqualTo(5);
        assertThat(options.deadLetterQueue()).isTrue();
        assertThat(options.priority()).isEqualTo(-3);
        assertThat(options.stripes()).isEqualTo(4);
        assertThat(options.maxSize()).isEqualTo(QueueOptions.defaults().maxSize());
        assertThat(QueueOptionsJson.read(QueueOptionsJson.write(options))).isEqualTo(options);
    }

    @Test
    void anOptionOutOfItsRangeIsRefusedWithTheRange() {
        assertThatThrownBy(() -> QueueOptionsJson.read(new QueueOptionsBody(0L, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null)))
                .hasMessage("'leaseTime' must be between 1 and 2147483647");
        assertThatThrownBy(() -> QueueOptionsJson.read(new QueueOptionsBody(3_000_000_000L, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null)))
                .hasMessage("'leaseTime' must be between 1 and 2147483647");
        assertThatThrownBy(() -> QueueOptionsJson.read(new QueueOptionsBody(null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, 5000L)))
                .hasMessage("'stripes' must be between 1 and " + QueueOptions.MAX_STRIPES);
    }
}
