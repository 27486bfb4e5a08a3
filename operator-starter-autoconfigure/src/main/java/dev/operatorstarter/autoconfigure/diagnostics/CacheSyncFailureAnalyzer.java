package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.InformerSyncException.Denial;
import dev.operatorstarter.cache.InformerSyncException.Unsynced;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The informer caches did not sync at start-up. For an RBAC refusal it names the identity, the
 * verb, the resource and the namespace, read from the typed errors the exception keeps (the
 * API's 403 {@code Status}), and shows the Role rule that is missing.
 */
final class CacheSyncFailureAnalyzer extends AbstractFailureAnalyzer<InformerSyncException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InformerSyncException cause) {
        StringBuilder description = new StringBuilder("The operator's informer caches did not sync within "
                + cause.timeout() + " (operator.informers.cache-sync-timeout):");
        for (Unsynced unsynced : cause.unsynced()) {
            description.append("\n\t- ").append(unsynced.informer()).append(": ");
            Denial denial = unsynced.denial().orElse(null);
            if (denial != null) {
                description.append(denial.identity()).append(" may not ").append(denial.verb()).append(' ')
                        .append(qualified(denial))
                        .append(denial.namespace().isEmpty() ? " at the cluster scope" : " in namespace " + denial.namespace())
                        .append(" (403 Forbidden)");
            } else {
                description.append(unsynced.describeError());
            }
        }
        return new FailureAnalysis(description.toString(), action(cause), cause);
    }

    private static String action(InformerSyncException cause) {
        if (cause.denials().isEmpty()) {
            boolean failing = cause.unsynced().stream().anyMatch(unsynced -> unsynced.lastError() != null);
            // A longer wait helps an informer that is still listing, not one whose requests fail.
            return failing ? "Fix what the errors above say: check that the API server is reachable from here "
                    + "(operator.client.* or the kubeconfig) and that it serves these resources."
                    : "The informers were still listing when the time ran out, with no error: a large cache or a slow "
                            + "API server. Raise operator.informers.cache-sync-timeout, or cache less (label or field "
                            + "selectors, metadata-only informers: docs/informers.md).";
        }
        Set<String> rules = new LinkedHashSet<>();
        for (Denial denial : cause.denials()) {
            rules.add("\t- apiGroups: [\"" + denial.group() + "\"]\n\t  resources: [\"" + denial.resource()
                    + "\"]\n\t  verbs: [\"get\", \"list\", \"watch\"]");
        }
        Denial first = cause.denials().get(0);
        return "Grant " + first.identity() + " read access with a Role (or a ClusterRole when watching all namespaces)"
                + " bound to it; informers need get, list and watch:\n" + String.join("\n", rules);
    }

    private static String qualified(Denial denial) {
        return denial.group().isEmpty() ? denial.resource() : denial.resource() + "." + denial.group();
    }
}
