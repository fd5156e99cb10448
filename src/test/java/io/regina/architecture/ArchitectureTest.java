package io.regina.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.CompositeArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules ARCHITECTURE.md claims, checked on the main classes: the domain's purity and the standalone
 * client and worker runtime ({@link SdkRules}) here, the
 * package table by checkstyle's ImportControl ({@code config/import-control.xml}) in {@code validate},
 * and here that no class lives outside that table.
 */
class ArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.regina");
    }

    @Test
    void theDomainIsPure() {
        CompositeArchRule.of(DomainRules.all("io.regina.queue..")).check(main); // every violation at once
    }

    @Test
    void theClientAndTheWorkerRuntimeStandOnTheJdkAndJackson() {
        CompositeArchRule.of(SdkRules.jdkAndJacksonOnly(SdkRules.CLIENT))
                .and(SdkRules.jdkAndJacksonOnly(SdkRules.WORKER, SdkRules.CLIENT))
                .and(SdkRules.jdkAndJacksonOnly(SdkRules.WORKER_SPRING, SdkRules.CLIENT, SdkRules.WORKER,
                        "org.springframework.."))
                .and(SdkRules.jdkAndJacksonOnly(SdkRules.WORKER_MICROMETER, SdkRules.WORKER, "io.micrometer.."))
                .and(SdkRules.jdkAndJacksonOnly(SdkRules.WORKER_SUPERVISOR, SdkRules.CLIENT, SdkRules.WORKER))
                .and(SdkRules.clientUsedOnlyByWorkersAndCli()).check(main);
    }

    @Test
    void everyMainClassLivesInAPackageWithAnImportRule() {
        KnownPackages.fromImportControl().everyClassInAKnownPackage().check(main);
    }

    @Test
    void theImportControlRefusesWhatNoRuleAllows() throws Exception {
        String xml = Files.readString(KnownPackages.IMPORT_CONTROL);
        assertThat(xml).as("the root of " + KnownPackages.IMPORT_CONTROL)
                .containsPattern("<import-control pkg=\"io\\.regina\" strategyOnMismatch=\"disallowed\">");
        assertThat(KnownPackages.fromImportControl().packages()).contains("io.regina.queue", "io.regina.raft",
                "io.regina.api", "io.regina.api.dto", "io.regina.dashboard", "io.regina.client", "io.regina.worker", "io.regina.cli",
                "io.regina.config");
    }
}
