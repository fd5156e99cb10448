package io.regina.worker.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a Spring bean method as the handler of a job kind, run by {@link ReginaJobMethods}. The method takes
 * the payload (bound by Jackson to the first parameter's type) and optionally a
 * {@link io.regina.worker.JobContext} second; returning completes the job, throwing is a failed attempt. The
 * attributes are the kind's {@link io.regina.worker.JobOptions}.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface ReginaJob {

    /** The kind's name: the {@code job} field a dispatch writes. */
    String value();

    /** The queue the kind's jobs are dispatched to. */
    String queue();

    int tries() default 1;

    /** Seconds before each retry, the last one repeated. */
    long[] backoff() default {};

    /** Seconds an attempt may run; 0 for no limit. */
    long timeoutSeconds() default 60;

    boolean failOnTimeout() default false;

    /** 0 for no limit. */
    int maxExceptions() default 0;

    /** Retry while the job is younger than this many seconds, instead of {@link #tries}; 0 for not. */
    long retryUntilSeconds() default 0;
}
