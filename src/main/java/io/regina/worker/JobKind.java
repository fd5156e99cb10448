package io.regina.worker;

/**
 * One kind of job a worker runs: its {@code name} (the {@code job} field a dispatch writes), the type its
 * data binds to, the handler and its retry options.
 */
public record JobKind<T>(String name, Class<T> payloadType, JobHandler<T> handler, JobOptions options) {

    public static <T> JobKind<T> of(String name, Class<T> payloadType, JobHandler<T> handler) {
        return new JobKind<>(name, payloadType, handler, JobOptions.defaults());
    }

    public JobKind<T> options(JobOptions retries) {
        return new JobKind<>(name, payloadType, handler, retries);
    }
}
