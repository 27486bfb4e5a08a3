package dev.operatorstarter.crd.generator;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' order of API versions, highest priority first: GA before beta before alpha, and
 * within each the higher major, then the higher minor ({@code v2, v1, v11beta2, v10beta3,
 * v3beta1, v12alpha1, v11alpha2}); versions that do not look like Kubernetes versions come last,
 * in alphabetical order ({@code foo1, foo10}). The CRD lists its versions in this order.
 */
final class VersionPriority implements Comparator<String> {

    static final VersionPriority INSTANCE = new VersionPriority();

    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    private VersionPriority() {
    }

    @Override
    public int compare(String left, String right) {
        Matcher a = KUBE_VERSION.matcher(left);
        Matcher b = KUBE_VERSION.matcher(right);
        boolean kubeA = a.matches();
        boolean kubeB = b.matches();
        if (!kubeA || !kubeB) {
            return kubeA == kubeB ? left.compareTo(right) : kubeA ? -1 : 1;
        }
        int byStability = Integer.compare(stability(b.group(2)), stability(a.group(2)));
        if (byStability != 0) {
            return byStability;
        }
        int byMajor = Long.compare(Long.parseLong(b.group(1)), Long.parseLong(a.group(1)));
        if (byMajor != 0 || a.group(3) == null) {
            return byMajor;
        }
        return Long.compare(Long.parseLong(b.group(3)), Long.parseLong(a.group(3)));
    }

    private static int stability(String level) {
        if (level == null) {
            return 2;
        }
        return level.equals("beta") ? 1 : 0;
    }
}
