package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.client.discovery.ResourceLookup.NotServed;
import dev.operatorstarter.manager.ResourceNotServedException;
import java.util.stream.Collectors;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The API server does not serve a resource the informers need: for a custom resource, its CRD is
 * not installed. Start-up failed at once, from the server's discovery, rather than after the
 * cache-sync timeout; the action says how to install it or how to wait for it instead.
 */
final class MissingCrdFailureAnalyzer extends AbstractFailureAnalyzer<ResourceNotServedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ResourceNotServedException cause) {
        String description = "The operator's informers need resources the API server does not serve:\n"
                + cause.missing().stream().map(missing -> "\t- " + missing.describe(cause.server()))
                        .collect(Collectors.joining("\n"));
        boolean crds = cause.missing().stream().map(NotServed::resource).anyMatch(r -> !r.group().isEmpty());
        boolean otherVersions = cause.missing().stream().anyMatch(missing -> !missing.servedInVersions().isEmpty());
        String action = (otherVersions ? "Make the resource class's @Version one the CRD serves, or add that version "
                + "to the CRD's spec.versions with served: true (and apply it again). " : "")
                + (crds ? "Install the CRD before the operator starts, for example with kubectl apply -f "
                + "<the CRD's YAML> (a Helm chart may install it from its crds/ folder). If it is installed, check that it "
                + "serves the version the resource class names (@Group, @Version) in spec.versions[].served and is "
                + "Established. " : "Check the resource class's @Group and @Version against kubectl api-resources. ")
                + "To start without it and wait until it is served, set operator.informers.on-missing-crd=wait (with "
                + "operator.informers.wait-for-sync-on-startup=false the application starts meanwhile, and the "
                + "informers readiness health names what it waits for).";
        return new FailureAnalysis(description, action, cause);
    }
}
