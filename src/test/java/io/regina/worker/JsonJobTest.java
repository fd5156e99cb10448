package io.regina.worker;

import io.regina.client.Message;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How a delivery's payload becomes a job: its kind, its data bound, or why it cannot run. */
class JsonJobTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Mail(String to) {
    }

    private static final Map<String, JobKind<?>> KINDS = Map.of("mail", JobKind.of("mail", Mail.class,
            (mail, job) -> { }));

    private static JsonJob read(String payload) {
        return JsonJob.read(JSON, new Message("m", "t", null, JSON.readTree(payload), null, null, "p", "Default", "l",
                "g", 1), KINDS);
    }

    @Test
    void aDispatchedJobBindsItsDataToTheKindsType() throws Exception {
        JsonJob job = read("{\"job\":\"mail\",\"data\":{\"to\":\"ada\"}}");

        assertThat(job.refusal()).isNull();
        assertThat(job.kindName()).isEqualTo("mail");
        Mail[] seen = new Mail[1];
        JsonJob.read(JSON, new Message("m", "t", null, JSON.readTree("{\"job\":\"mail\",\"data\":{\"to\":\"bob\"}}"),
                null, null, "p", "Default", "l", "g", 1), Map.of("mail", JobKind.of("mail", Mail.class,
                (mail, context) -> seen[0] = mail))).run(null);
        assertThat(seen[0]).isEqualTo(new Mail("bob"));
        assertThat(read("{\"job\":\"mail\"}").refusal()).as("no data binds to null").isNull();
    }

    @Test
    void whatCannotRunSaysWhy() {
        assertThat(read("\"just text\"").refusal()).contains("no 'job' field");
        assertThat(read("{\"job\":\"sms\",\"data\":{}}").refusal())
                .isEqualTo("no handler for job kind 'sms' on this worker (it runs [mail])");
        assertThat(read("{\"job\":\"mail\",\"data\":{\"to\":[1,2]}}").refusal())
                .startsWith("the data of mail does not bind to Mail: ");
    }
}
