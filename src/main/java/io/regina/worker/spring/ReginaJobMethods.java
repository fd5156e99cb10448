package io.regina.worker.spring;

import io.regina.client.ReginaClient;
import io.regina.worker.JobContext;
import io.regina.worker.JobHandler;
import io.regina.worker.JobKind;
import io.regina.worker.JobOptions;
import io.regina.worker.Worker;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Runs the {@link ReginaJob} methods of a Spring application's beans: one {@link Worker} per queue named by
 * them, started with the context and stopped with it ({@link Worker#stop} within {@code grace}). Declare it
 * as a bean:
 *
 * <pre>{@code
 * @Bean
 * static ReginaJobMethods reginaJobs(ReginaClient regina) {
 *     return new ReginaJobMethods(regina, worker -> worker.prefetch(4), Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class ReginaJobMethods implements BeanPostProcessor, SmartLifecycle {
    private final ReginaClient client;
    private final Consumer<Worker.Builder> settings;
    private final Duration grace;
    private final Map<String, List<JobKind<?>>> kindsByQueue = new LinkedHashMap<>();
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean running;

    /** {@code settings} is applied to each queue's worker (prefetch, lease, group, listeners…). */
    public ReginaJobMethods(ReginaClient client, Consumer<Worker.Builder> settings, Duration grace) {
        this.client = client;
        this.settings = settings;
        this.grace = grace;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        for (Method method : ClassUtils.getUserClass(bean).getMethods()) {
            ReginaJob job = AnnotatedElementUtils.findMergedAnnotation(method, ReginaJob.class);
            if (job != null) {
                kindsByQueue.computeIfAbsent(job.queue(), q -> new ArrayList<>())
                        .add(kind(job, bean, AopUtils.selectInvocableMethod(method, bean.getClass())));
            }
        }
        return bean;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static JobKind<?> kind(ReginaJob job, Object bean, Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        if (parameters.length < 1 || parameters.length > 2
                || parameters.length == 2 && parameters[1] != JobContext.class) {
            throw new IllegalStateException("@ReginaJob method " + method + " must take (payload) or"
                    + " (payload, JobContext)");
        }
        JobHandler<Object> handler = (payload, context) -> {
            try {
                method.invoke(bean, parameters.length == 1 ? new Object[] {payload} : new Object[] {payload, context});
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof Exception exception) {
                    throw exception;
                }
                throw (Error) e.getCause();
            }
        };
        return JobKind.of(job.value(), (Class) ClassUtils.resolvePrimitiveIfNecessary(parameters[0]), handler)
                .options(options(job));
    }

    static JobOptions options(ReginaJob job) {
        JobOptions options = JobOptions.defaults().tries(job.tries()).backoff(job.backoff())
                .timeout(job.timeoutSeconds() > 0 ? Duration.ofSeconds(job.timeoutSeconds()) : null)
                .failOnTimeout(job.failOnTimeout()).maxExceptions(job.maxExceptions());
        return job.retryUntilSeconds() > 0 ? options.retryUntil(Duration.ofSeconds(job.retryUntilSeconds())) : options;
    }

    @Override
    public void start() {
        kindsByQueue.forEach((queue, kinds) -> {
            Worker.Builder builder = Worker.builder(client, queue);
            kinds.forEach(builder::job);
            settings.accept(builder);
            Worker worker = builder.build();
            workers.add(worker);
            worker.start();
        });
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        // all at once, so that the context's shutdown takes one grace, not one per queue
        CompletableFuture.allOf(workers.stream().map(worker -> CompletableFuture.runAsync(() -> {
            try {
                worker.stop(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })).toArray(CompletableFuture[]::new)).join();
        workers.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
