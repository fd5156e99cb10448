package io.regina.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.regina.api.stray.StrayApiClass;
import io.regina.architecture.fixtures.PureDomain;
import io.regina.architecture.fixtures.Violations;
import io.regina.queue.Ids;
import io.regina.stray.StrayClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Each rule of {@link ArchitectureTest}, run on a fixture that breaks it, reports that fixture. */
class ArchitectureRulesCanFailTest {

    private static final String FIXTURES = "io.regina.architecture.fixtures..";

    static Stream<Arguments> violations() {
        Function<String, ArchRule> jdkOnly = DomainRules::jdkOnly;
        Function<String, ArchRule> clock = DomainRules::noClock;
        Function<String, ArchRule> random = DomainRules::noRandomness;
        Function<String, ArchRule> io = DomainRules::noIo;
        Function<String, ArchRule> threads = DomainRules::noThreads;
        return Stream.of(
                arguments(Violations.CurrentTimeMillis.class, clock, "System.currentTimeMillis()"),
                arguments(Violations.NanoTimeReference.class, clock, "System.nanoTime()"),
                arguments(Violations.InstantNow.class, clock, "Instant.now()"),
                arguments(Violations.LocalDateTimeNow.class, clock, "LocalDateTime.now()"),
                arguments(Violations.HoldsAClock.class, clock, "java.time.Clock"),
                arguments(Violations.RandomUuid.class, random, "UUID.randomUUID()"),
                arguments(Violations.NewRandom.class, random, "java.util.Random"),
                arguments(Violations.ThreadLocalRandomness.class, random, "ThreadLocalRandom"),
                arguments(Violations.SecureRandomness.class, random, "java.security.SecureRandom"),
                arguments(Violations.MathRandom.class, random, "Math.random()"),
                arguments(Violations.Shuffle.class, random, "Collections.shuffle("),
                arguments(Violations.ReadsAFile.class, io, "java.nio.file.Files"),
                arguments(Violations.WrapsAnIoException.class, io, "java.io.UncheckedIOException"),
                arguments(Violations.PrintsToStdout.class, io, "java.io.PrintStream"),
                arguments(Violations.ReadsTheEnvironment.class, io, "System.getenv("),
                arguments(Violations.StartsAThread.class, threads, "java.lang.Thread"),
                arguments(Violations.UsesAnAtomic.class, threads, "java.util.concurrent.atomic.AtomicLong"),
                arguments(Violations.UsesAConcurrentMap.class, threads, "java.util.concurrent.ConcurrentHashMap"),
                arguments(Violations.SynchronizedMethod.class, threads, "SYNCHRONIZED"),
                arguments(Violations.VolatileField.class, threads, "VOLATILE"),
                arguments(Violations.UsesAFramework.class, jdkOnly, "org.slf4j.Logger"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void aDomainRuleReportsItsViolation(Class<?> fixture, Function<String, ArchRule> rule, String reported) {
        EvaluationResult result = rule.apply(FIXTURES).evaluate(new ClassFileImporter().importClasses(fixture));
        assertThat(result.hasViolation()).as("%s breaks %s", fixture.getSimpleName(), rule.apply(FIXTURES))
                .isTrue();
        assertThat(result.getFailureReport().getDetails()).anySatisfy(line -> assertThat(line)
                .contains(fixture.getSimpleName()).contains(reported));
    }

    @Test
    void whatTheDomainMayDoBreaksNoRule() {
        JavaClasses pure = new ClassFileImporter().importClasses(PureDomain.class);
        for (ArchRule rule : DomainRules.all(FIXTURES)) {
            assertThat(rule.evaluate(pure).getFailureReport().getDetails()).as(rule.getDescription()).isEmpty();
        }
    }

    @Test
    void aClassOutsideThePackageTableIsReported() {
        ArchRule rule = KnownPackages.fromImportControl().everyClassInAKnownPackage();
        JavaClasses classes = new ClassFileImporter().importClasses(StrayClass.class, StrayApiClass.class,
                Ids.class);
        assertThat(rule.evaluate(classes).getFailureReport().getDetails())
                .as("a new package and a sub-package of api without its own rule; not the queue class")
                .hasSize(2)
                .anySatisfy(line -> assertThat(line).contains(StrayClass.class.getName()))
                .anySatisfy(line -> assertThat(line).contains(StrayApiClass.class.getName()));
    }
}
