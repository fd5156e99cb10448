package io.regina.architecture;

import com.tngtech.archunit.lang.ArchRule;

import java.util.ArrayList;
import java.util.List;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The rules that keep the Java client and the worker runtime publishable on their own (README, "Java client
 * and workers"): they use the JDK and Jackson and nothing of the broker, and the broker does not lean on
 * them. Checked on bytecode, so a fully qualified name counts as an import would.
 */
final class SdkRules {
    static final String CLIENT = "io.regina.client..";
    static final String WORKER = "io.regina.worker";
    /** The optional Spring adapter, the only part of them that may use Spring. */
    static final String WORKER_SPRING = "io.regina.worker.spring";
    /** The optional Micrometer meters, the only part of them that may use Micrometer. */
    static final String WORKER_MICROMETER = "io.regina.worker.micrometer";
    /** {@code queue:work}: worker JVMs driven through the client and the worker runtime. */
    static final String WORKER_SUPERVISOR = "io.regina.worker.supervisor";
    private static final String[] JACKSON = {"tools.jackson..", "com.fasterxml.jackson.annotation.."};

    private SdkRules() {
    }

    /** {@code sdk} depends on the JDK, Jackson and the packages in {@code also} (ArchUnit identifiers) only. */
    static ArchRule jdkAndJacksonOnly(String sdk, String... also) {
        List<String> allowed = new ArrayList<>(List.of("java..", sdk));
        allowed.addAll(List.of(JACKSON));
        allowed.addAll(List.of(also));
        return classes().that().resideInAPackage(sdk)
                .should().onlyDependOnClassesThat(resideInAnyPackage(allowed.toArray(String[]::new)))
                .because("the client and the worker runtime are published on their own, apart from the broker");
    }

    /** The rest of Regina does not use the client, but the worker runtime and the CLI. */
    static ArchRule clientUsedOnlyByWorkersAndCli() {
        return noClasses().that().resideInAPackage("io.regina..")
                .and().resideOutsideOfPackages(CLIENT, WORKER + "..", "io.regina.cli..")
                .should().dependOnClassesThat().resideInAPackage(CLIENT)
                .because("the broker must not depend on its own client")
                .allowEmptyShould(true);
    }
}
