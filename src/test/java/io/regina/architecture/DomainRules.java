package io.regina.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

import java.time.Clock;
import java.time.InstantSource;
import java.util.Calendar;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.random.RandomGenerator;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

/**
 * The rules that keep a package a pure, deterministic domain (ARCHITECTURE.md, "Rules that keep it simple"
 * 1 to 3), as ArchUnit rules over a package so that {@link DomainRulesCanFailTest} proves each on fixtures.
 *
 * <p>They read the bytecode, so they also see what an import check cannot: a fully qualified name in
 * the code, a method reference, a call through a JDK type that was never imported.
 */
final class DomainRules {

    private DomainRules() {
    }

    /** Every rule, for one package (an ArchUnit package identifier such as {@code io.regina.queue..}). */
    static List<ArchRule> all(String domain) {
        return List.of(jdkOnly(domain), noClock(domain), noRandomness(domain), noIo(domain), noThreads(domain));
    }

    /** No framework, no library: the JDK's {@code java.*} and the domain itself. */
    static ArchRule jdkOnly(String domain) {
        return classes().that().resideInAPackage(domain)
                .should().onlyDependOnClassesThat(resideInAnyPackage("java..", domain))
                .because("the domain is pure: JDK only (ARCHITECTURE.md, Packages)");
    }

    /** Calls, field reads and method references of the wall clock. */
    private static final DescribedPredicate<JavaAccess<?>> WALL_CLOCK = target(
            "the target is a wall clock (System.currentTimeMillis, System.nanoTime, java.time's now())",
            (owner, name) -> owner.equals("java.lang.System") && Set.of("currentTimeMillis", "nanoTime").contains(name)
                    || owner.startsWith("java.time.") && name.equals("now"));

    private static final DescribedPredicate<JavaAccess<?>> RANDOM = target(
            "the target is random (UUID.randomUUID, Math.random, Collections.shuffle)",
            (owner, name) -> owner.equals("java.util.UUID") && name.equals("randomUUID")
                    || Set.of("java.lang.Math", "java.lang.StrictMath").contains(owner) && name.equals("random")
                    || owner.equals("java.util.Collections") && name.equals("shuffle"));

    private static final DescribedPredicate<JavaAccess<?>> ENVIRONMENT = target(
            "the target reads the environment (System.getenv, System.getProperty)",
            (owner, name) -> owner.equals("java.lang.System")
                    && Set.of("getenv", "getProperty", "getProperties").contains(name));

    /**
     * No wall-clock read: time is the leader-stamped {@code now} of the command. Covers every
     * {@code now()} of {@code java.time}, the {@code System} clocks, and any use of a {@code Clock}
     * or of the legacy {@code Date} and {@code Calendar}, whose constructors read the clock.
     */
    static ArchRule noClock(String domain) {
        return noClasses().that().resideInAPackage(domain)
                .should().accessTargetWhere(WALL_CLOCK)
                .orShould().dependOnClassesThat(belongToAnyOf(Clock.class, InstantSource.class, Date.class,
                        Calendar.class))
                .because("time is data: every replica applies the same now (ARCHITECTURE.md rules 1 and 3)");
    }

    /**
     * No randomness: ids are made by the submitting node and carried in the command. Every
     * {@link RandomGenerator} ({@code Random}, {@code SecureRandom}, {@code ThreadLocalRandom},
     * {@code SplittableRandom}) and the static shortcuts to one.
     */
    static ArchRule noRandomness(String domain) {
        return noClasses().that().resideInAPackage(domain)
                .should().dependOnClassesThat(assignableTo(RandomGenerator.class))
                .orShould().accessTargetWhere(RANDOM)
                .because("apply is deterministic: ids come in the command (ARCHITECTURE.md rule 1)");
    }

    /**
     * No I/O and no reading of the environment. All of {@code java.io} is refused, its exceptions
     * too: the domain never performs I/O, so it has nothing to catch or wrap ({@code
     * UncheckedIOException} belongs to the caller that did the I/O). {@code java.nio}'s buffers and
     * charsets stay allowed: they are memory, not I/O.
     */
    static ArchRule noIo(String domain) {
        return noClasses().that().resideInAPackage(domain)
                .should().dependOnClassesThat(resideInAnyPackage("java.io..", "java.nio.file..",
                        "java.nio.channels..", "java.net..", "java.sql..", "java.rmi.."))
                .orShould().dependOnClassesThat(belongToAnyOf(ProcessBuilder.class, ProcessHandle.class,
                        Runtime.class))
                .orShould().accessTargetWhere(ENVIRONMENT)
                .because("the domain has no I/O (ARCHITECTURE.md rule 1)");
    }

    /**
     * No threads and no locking: only the state machine's apply thread mutates the state, and the
     * lock around it belongs to {@code raft}. The one concurrency type allowed is the future that the
     * {@code CommandBus} port returns. A {@code synchronized} block leaves no trace ArchUnit reads (only
     * monitor instructions); the methods and fields are checked, and the concurrency types cover the rest.
     */
    static ArchRule noThreads(String domain) {
        DescribedPredicate<com.tngtech.archunit.core.domain.JavaClass> concurrency =
                resideInAnyPackage("java.util.concurrent..")
                        .and(DescribedPredicate.not(belongToAnyOf(CompletableFuture.class, CompletionStage.class)))
                        .or(belongToAnyOf(Thread.class, ThreadLocal.class, ThreadGroup.class))
                        .as("threads, executors, locks, atomics or concurrent collections");
        return CompositeArchRule
                .of(noClasses().that().resideInAPackage(domain).should().dependOnClassesThat(concurrency)
                        .orShould().callMethod(Object.class, "wait")
                        .orShould().callMethod(Object.class, "wait", long.class)
                        .orShould().callMethod(Object.class, "notify")
                        .orShould().callMethod(Object.class, "notifyAll"))
                .and(noMethods().that().areDeclaredInClassesThat().resideInAPackage(domain)
                        .should().haveModifier(JavaModifier.SYNCHRONIZED).allowEmptyShould(true))
                .and(noFields().that().areDeclaredInClassesThat().resideInAPackage(domain)
                        .should().haveModifier(JavaModifier.VOLATILE).allowEmptyShould(true))
                .because("one writer: the apply thread (ARCHITECTURE.md rule 2)");
    }

    /** Accesses (calls, field reads, method references) whose target owner and name match. */
    private static DescribedPredicate<JavaAccess<?>> target(String description, OwnerAndName match) {
        return DescribedPredicate.describe(description,
                access -> match.test(access.getTargetOwner().getName(), access.getTarget().getName()));
    }

    @FunctionalInterface
    private interface OwnerAndName {
        boolean test(String owner, String name);
    }
}
