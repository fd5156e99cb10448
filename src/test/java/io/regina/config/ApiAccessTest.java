package io.regina.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;

import static org.assertj.core.api.Assertions.assertThat;

/** Queen's route levels for every endpoint of API.md A2 and B, and the levels' order. */
class ApiAccessTest {

    @ParameterizedTest(name = "{0} {1} needs {2}")
    @CsvSource({
            "POST,   /api/v1/configure,                                  READ_WRITE",
            "DELETE, /api/v1/resources/queues/q,                         ADMIN",
            "POST,   /api/v1/push,                                       READ_WRITE",
            "GET,    /api/v1/pop/queue/q,                                READ_WRITE",
            "GET,    /api/v1/pop/queue/q/partition/p,                    READ_WRITE",
            "GET,    /api/v1/pop,                                        READ_WRITE",
            "POST,   /api/v1/ack,                                        READ_WRITE",
            "POST,   /api/v1/ack/batch,                                  READ_WRITE",
            "POST,   /api/v1/transaction,                                READ_WRITE",
            "POST,   /api/v1/ack/pop/queue/q,                            READ_WRITE",
            "POST,   /api/v1/ack/pop/queue/q/partition/p,                READ_WRITE",
            "POST,   /api/v1/lease/l-1/extend,                           READ_WRITE",
            "POST,   /api/v1/traces,                                     READ_WRITE",
            "GET,    /api/v1/traces,                                     READ_ONLY",
            "GET,    /api/v1/dlq,                                        READ_ONLY",
            "DELETE, /api/v1/consumer-groups/g,                          ADMIN",
            "DELETE, /api/v1/consumer-groups/g/queues/q,                 ADMIN",
            "POST,   /api/v1/consumer-groups/g/queues/q/seek,            READ_WRITE",
            "POST,   /api/v1/consumer-groups/g/subscription,             READ_WRITE",
            "GET,    /api/v1/consumer-groups,                            READ_ONLY",
            "GET,    /api/v1/system/maintenance,                         ADMIN",
            "POST,   /api/v1/system/maintenance,                         ADMIN",
            "GET,    /api/v1/system/maintenance/pop,                     ADMIN",
            "POST,   /api/v1/system/maintenance/pop,                     ADMIN",
            "GET,    /api/v1/resources/queues,                           READ_ONLY",
            "GET,    /api/v1/resources/queues/q,                         READ_ONLY",
            "GET,    /api/v1/resources/overview,                         READ_ONLY",
            "GET,    /api/v1/resources/namespaces,                       READ_ONLY",
            "GET,    /api/v1/resources/tasks,                            READ_ONLY",
            "GET,    /api/v1/messages,                                   READ_ONLY",
            "GET,    /api/v1/status/anything,                            READ_ONLY",
            "DELETE, /api/v1/queues/q/clear,                             ADMIN",
            "GET,    /api/v1/failed-jobs,                                READ_ONLY",
            "GET,    /api/v1/failed-jobs/0190-uuid,                      READ_ONLY",
            "POST,   /api/v1/failed-jobs/retry,                          ADMIN",
            "POST,   /api/v1/failed-jobs/0190-uuid/retry,                ADMIN",
            "DELETE, /api/v1/failed-jobs/0190-uuid,                      ADMIN",
            "POST,   /api/v1/failed-jobs/flush,                          ADMIN",
            "POST,   /api/v1/failed-jobs/prune,                          ADMIN",
            "GET,    /api/v1/queues/q/size,                              READ_ONLY",
            "GET,    /api/v1/queues/q/depth,                             READ_ONLY",
            "GET,    /api/v1/watch/queue/q,                              READ_ONLY",
            "GET,    /api/v1/monitor,                                    READ_ONLY",
            "POST,   /api/v1/queues/q/pause,                             ADMIN",
            "POST,   /api/v1/queues/q/resume,                            ADMIN",
            "GET,    /api/v1/cluster,                                    READ_ONLY",
            "POST,   /api/v1/cluster/members,                            ADMIN",
            "DELETE, /api/v1/cluster/members/n4,                         ADMIN",
            "PUT,    /api/v1/unknown,                                    READ_WRITE"})
    void everyEndpointNeedsQueensLevel(String method, String path, ApiAccess expected) {
        assertThat(ApiAccess.required(HttpMethod.valueOf(method), PathContainer.parsePath(path))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} allows {1}: {2}")
    @CsvSource({
            "ADMIN,      ADMIN,      true",
            "ADMIN,      READ_WRITE, true",
            "ADMIN,      READ_ONLY,  true",
            "READ_WRITE, ADMIN,      false",
            "READ_WRITE, READ_WRITE, true",
            "READ_WRITE, READ_ONLY,  true",
            "READ_ONLY,  READ_WRITE, false",
            "READ_ONLY,  READ_ONLY,  true"})
    void eachLevelIncludesTheOnesBelow(ApiAccess held, ApiAccess needed, boolean allowed) {
        assertThat(held.allows(needed)).isEqualTo(allowed);
    }
}
