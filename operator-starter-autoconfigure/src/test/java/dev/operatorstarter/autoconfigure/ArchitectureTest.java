package dev.operatorstarter.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The starter's auto-configuration, main code and tests alike, builds on the runtime's API only:
 * {@code dev.operatorstarter.internal} is not API and may change in any release.
 */
@AnalyzeClasses(packages = "dev.operatorstarter.autoconfigure")
class ArchitectureTest {

    @ArchTest
    static final ArchRule theAutoConfigurationUsesNothingOfTheRuntimesInternalPackage = noClasses().should().dependOnClassesThat()
            .resideInAPackage("dev.operatorstarter.internal..")
            .because("the runtime's internal package is not API and may change in any release");
}
