package dev.operatorstarter.sample;

import dev.operatorstarter.controller.OwnerReferences;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The objects a {@link StaticSite} owns, as server-side apply configurations: only the fields the
 * operator decides, each with a controller owner reference to the site. Pure functions, no I/O.
 *
 * <ul>
 *   <li>a ConfigMap {@code <site>-content} holding the files;</li>
 *   <li>a Deployment {@code <site>} of web servers mounting it, restarted (through a pod-template
 *       annotation holding the content's hash) whenever the content changes;</li>
 *   <li>a Service {@code <site>} on port 80 in front of them.</li>
 * </ul>
 */
final class SiteResources {

    /** The annotation on the pod template that changes with the content, so the pods roll. */
    static final String CONTENT_HASH = StaticSite.GROUP + "/content-hash";
    static final String NAME_LABEL = "app.kubernetes.io/name";
    static final String INSTANCE_LABEL = "app.kubernetes.io/instance";
    static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    static final String SERVER_PORT_NAME = "http";
    static final int SERVER_PORT = 8080;
    private static final String HTML_DIRECTORY = "/usr/share/nginx/html";
    private static final long NON_ROOT_ID = 101; // nginx-unprivileged's user

    private SiteResources() {
    }

    static String contentName(StaticSite site) {
        return site.getMetadata().getName() + "-content";
    }

    static String url(StaticSite site) {
        return "http://" + site.getMetadata().getName() + "." + site.getMetadata().getNamespace() + ".svc";
    }

    static ConfigMap content(StaticSite site) {
        ConfigMap configMap = new ConfigMapBuilder().withNewMetadata().withNamespace(site.getMetadata().getNamespace())
                .withName(contentName(site)).withLabels(labels(site)).endMetadata()
                .withData(site.getSpec().filesByName()).build();
        OwnerReferences.setController(site, configMap);
        return configMap;
    }

    static Deployment deployment(StaticSite site, String image) {
        Map<String, String> selector = selector(site);
        Deployment deployment = new DeploymentBuilder().withNewMetadata().withNamespace(site.getMetadata().getNamespace())
                .withName(site.getMetadata().getName()).withLabels(labels(site)).endMetadata()
                .withNewSpec().withReplicas(site.getSpec().replicas())
                .withNewSelector().withMatchLabels(selector).endSelector()
                .withNewTemplate()
                    .withNewMetadata().withLabels(labels(site)).addToAnnotations(CONTENT_HASH, contentHash(site))
                    .endMetadata()
                    .withNewSpec()
                        .withAutomountServiceAccountToken(false)
                        .withNewSecurityContext().withRunAsNonRoot(true).withRunAsUser(NON_ROOT_ID)
                            .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                        .endSecurityContext()
                        .addNewContainer().withName("web").withImage(image)
                            .addNewPort().withName(SERVER_PORT_NAME).withContainerPort(SERVER_PORT).endPort()
                            .withNewReadinessProbe().withNewHttpGet().withPath("/")
                                .withPort(new IntOrString(SERVER_PORT_NAME)).endHttpGet().endReadinessProbe()
                            .addNewVolumeMount().withName("content").withMountPath(HTML_DIRECTORY).withReadOnly(true)
                            .endVolumeMount()
                            .withNewSecurityContext().withAllowPrivilegeEscalation(false)
                                .withNewCapabilities().addToDrop("ALL").endCapabilities()
                            .endSecurityContext()
                        .endContainer()
                        .addNewVolume().withName("content").withNewConfigMap().withName(contentName(site))
                        .endConfigMap().endVolume()
                    .endSpec()
                .endTemplate()
                .endSpec().build();
        OwnerReferences.setController(site, deployment);
        return deployment;
    }

    static Service service(StaticSite site) {
        Service service = new ServiceBuilder().withNewMetadata().withNamespace(site.getMetadata().getNamespace())
                .withName(site.getMetadata().getName()).withLabels(labels(site)).endMetadata()
                .withNewSpec().withSelector(selector(site))
                .addNewPort().withName(SERVER_PORT_NAME).withPort(80).withTargetPort(new IntOrString(SERVER_PORT_NAME))
                .endPort()
                .endSpec().build();
        OwnerReferences.setController(site, service);
        return service;
    }

    /** A SHA-256 of the file names and texts, in name order (so reordering the files rolls nothing). */
    static String contentHash(StaticSite site) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, String> file : new TreeMap<>(site.getSpec().filesByName()).entrySet()) {
                digest.update(file.getKey().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(file.getValue().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static Map<String, String> selector(StaticSite site) {
        Map<String, String> selector = new LinkedHashMap<>();
        selector.put(NAME_LABEL, "static-site");
        selector.put(INSTANCE_LABEL, site.getMetadata().getName());
        return selector;
    }

    private static Map<String, String> labels(StaticSite site) {
        Map<String, String> labels = selector(site);
        labels.put(MANAGED_BY_LABEL, SampleOperatorApplication.NAME);
        return labels;
    }
}
