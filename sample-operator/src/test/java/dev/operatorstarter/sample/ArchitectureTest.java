package dev.operatorstarter.sample;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The sample operator (which users copy), main code and tests alike, builds on the runtime's API only:
 * {@code dev.operatorstarter.internal} is not API and may change in any release.
 */
@AnalyzeClasses(packages = "dev.operatorstarter.sample")
class ArchitectureTest {

    @ArchTest
    static final ArchRule theSampleUsesNothingOfTheRuntimesInternalPackage = noClasses().should().dependOnClassesThat()
            .resideInAPackage("dev.operatorstarter.internal..")
            .because("the runtime's internal package is not API and may change in any release");
}
