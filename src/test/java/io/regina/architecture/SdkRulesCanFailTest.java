package io.regina.architecture;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.regina.architecture.fixtures.PureDomain;
import io.regina.architecture.fixtures.Violations;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules of {@link SdkRules}, run on classes that break them, report those classes. */
class SdkRulesCanFailTest {

    @Test
    void aLibraryOtherThanJacksonIsReported() {
        EvaluationResult result = SdkRules.jdkAndJacksonOnly("io.regina.architecture.fixtures..")
                .evaluate(new ClassFileImporter().importClasses(Violations.UsesAFramework.class, PureDomain.class));
        assertThat(result.getFailureReport().getDetails()).isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("UsesAFramework"))
                .anySatisfy(line -> assertThat(line).contains("org.slf4j.Logger"));
    }

    @Test
    void theBrokerUsingTheClientIsReported() {
        EvaluationResult result = SdkRules.clientUsedOnlyByWorkersAndCli()
                .evaluate(new ClassFileImporter().importClasses(UsesTheClient.class));
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("UsesTheClient").contains("ReginaClient"));
    }

    /** A test class standing in for a broker class that calls the client. */
    static final class UsesTheClient {
        Object client() {
            return io.regina.client.ReginaClient.builder();
        }
    }
}
