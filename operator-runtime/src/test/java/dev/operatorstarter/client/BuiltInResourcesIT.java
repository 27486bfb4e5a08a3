package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.discovery.ApiResource;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.test.KubernetesTest;
import io.fabric8.kubernetes.api.model.APIService;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every built-in resource the real API server serves has a typed accessor in {@link Clientset}, or
 * a line in docs/client.md ("Built-in resources without an accessor") saying why not. Discovery
 * decides what is served, in every served version and not only the preferred one; subresources are
 * not resources of their own; what CRDs and aggregated API servers add is not built in. So a new
 * Kubernetes version that serves a new resource fails this test until the resource gets one or the
 * other. Each accessor's group, version, plural, kind and scope (resolved from its fabric8 class's
 * annotations by {@link ResourceType#of}) must be the server's, and each accessor lists or, for the
 * create-only reviews, creates through its typed client.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class BuiltInResourcesIT {

    /** Where the explanations are, relative to this module's folder (the tests' working directory). */
    private static final Path CLIENT_DOCS = Path.of("..", "docs", "client.md");
    private static final String SECTION = "### Built-in resources without an accessor";
    private static final Pattern ENTRY = Pattern.compile("^\\| `([^`]+)` \\|");

    @Test
    void everyServedBuiltInResourceHasATypedAccessorOrADocumentedReasonWhyNot(KubernetesClient client)
            throws IOException {
        Map<String, ApiResource> served = servedBuiltInResources(client);
        Map<String, ClientsetAccessors.Accessor> accessors = ClientsetAccessors.of(client).stream()
                .collect(Collectors.toMap(accessor -> key(accessor.type().groupVersionResource()), Function.identity()));
        Set<String> explained = explainedInTheDocs();

        Set<String> neither = new TreeSet<>(served.keySet());
        neither.removeAll(accessors.keySet());
        neither.removeAll(explained);
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(neither).as("""
                    built-in resources the server serves with neither a typed accessor in Clientset nor a line \
                    in docs/client.md under "%s" saying why not""", SECTION).isEmpty();
            softly.assertThat(without(accessors.keySet(), served.keySet()))
                    .as("typed accessors of resources the server does not serve").isEmpty();
            softly.assertThat(without(explained, served.keySet()))
                    .as("docs/client.md explains resources the server does not serve: remove the lines").isEmpty();
            softly.assertThat(explained).as("resources with an accessor that docs/client.md says have none")
                    .doesNotContainAnyElementsOf(accessors.keySet());
            accessors.forEach((key, accessor) -> {
                ApiResource resource = served.get(key);
                if (resource != null) {
                    softly.assertThat(accessor.type().kind()).as(accessor + "'s kind").isEqualTo(resource.kind());
                    softly.assertThat(accessor.type().namespaced()).as(accessor + " is namespaced")
                            .isEqualTo(resource.namespaced());
                }
            });
        });
        assertThat(served).as("the server's built-in resources (a sanity floor)").hasSizeGreaterThan(60);
    }

    @Test
    void everyAccessorOfAListableResourceListsItsObjectsAsItsModelClass(KubernetesClient client) {
        Map<String, ApiResource> served = servedBuiltInResources(client);
        ListOptions one = ListOptions.builder().limit(1L).build();

        SoftAssertions.assertSoftly(softly -> ClientsetAccessors.of(client).stream()
                .filter(accessor -> served.get(key(accessor.type().groupVersionResource())).verbs().contains("list"))
                .forEach(accessor -> {
                    ResourceList<?> list = client.resources(accessor.type()).list(one);
                    softly.assertThat(list.items()).as(accessor + "'s objects")
                            .allSatisfy(item -> assertThat(item).isInstanceOf(accessor.type().javaClass()));
                    softly.assertThat(list.resourceVersion()).as(accessor + "'s list").isNotEmpty();
                }));
    }

    @Test
    void theCreateOnlyReviewsAnswerThroughTheirTypedAccessors(KubernetesClient client) {
        SelfSubjectAccessReview access = client.authorizationV1().selfSubjectAccessReviews().create(
                new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes().withVerb("list")
                        .withResource("pods").withNamespace("default").endResourceAttributes().endSpec().build());
        TokenReview token = client.authenticationV1().tokenReviews().create(
                new TokenReviewBuilder().withNewSpec().withToken("not-a-token").endSpec().build());

        assertThat(access.getStatus().getAllowed()).as("the admin may list pods").isTrue();
        assertThat(token.getStatus().getAuthenticated()).as("a made-up token authenticates nobody").isNotEqualTo(true);
    }

    /**
     * The resources the server itself serves, by {@code group/version/resource}: every group
     * version's, less those of CRDs and of APIServices that an aggregated server answers.
     */
    private static Map<String, ApiResource> servedBuiltInResources(KubernetesClient client) {
        client.discovery().invalidate();
        Set<String> added = new TreeSet<>();
        for (CustomResourceDefinition crd : client.apiextensionsV1().customResourceDefinitions().list().items()) {
            crd.getSpec().getVersions().forEach(version -> added.add(
                    key(crd.getSpec().getGroup(), version.getName(), crd.getSpec().getNames().getPlural())));
        }
        Set<String> aggregated = new TreeSet<>();
        for (APIService service : client.apiregistrationV1().apiServices().list().items()) {
            if (service.getSpec().getService() != null) {
                aggregated.add(service.getSpec().getGroup() + "/" + service.getSpec().getVersion());
            }
        }
        Map<String, ApiResource> served = new LinkedHashMap<>();
        for (ApiResource resource : client.discovery().resources()) {
            String key = key(resource.group(), resource.version(), resource.resource());
            if (!added.contains(key) && !aggregated.contains(resource.group() + "/" + resource.version())) {
                served.put(key, resource);
            }
        }
        return served;
    }

    /** The resources listed under {@link #SECTION} in docs/client.md, as {@code group/version/resource}. */
    private static Set<String> explainedInTheDocs() throws IOException {
        List<String> lines = Files.readAllLines(CLIENT_DOCS);
        int start = lines.indexOf(SECTION);
        assertThat(start).as("docs/client.md has the section " + SECTION).isNotNegative();
        Set<String> explained = new TreeSet<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("#")) {
                break;
            }
            Matcher entry = ENTRY.matcher(line);
            if (entry.find()) {
                explained.add(entry.group(1).startsWith("v1/") ? "/" + entry.group(1) : entry.group(1));
            }
        }
        return explained;
    }

    private static String key(GroupVersionResource resource) {
        return key(resource.group(), resource.version(), resource.resource());
    }

    /** {@code group/version/resource}, the core group empty: {@code /v1/pods}, {@code apps/v1/deployments}. */
    private static String key(String group, String version, String resource) {
        return group + "/" + version + "/" + resource;
    }

    private static Set<String> without(Set<String> these, Set<String> those) {
        Set<String> left = new TreeSet<>(these);
        left.removeAll(those);
        return left;
    }
}
