package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.Indexer;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The per-namespace replica budget, over a cache the test fills: what is counted, and what is never refused. */
class StaticSiteValidatorTest {

    private static final Map<String, String> HELLO = Map.of("index.html", "<h1>Hello</h1>");
    private final Indexer<StaticSite> cache = Indexer.create();
    private boolean synced = true;
    private final StaticSiteValidator validator = new StaticSiteValidator(
            namespace -> synced ? Optional.of(Lister.of(cache).namespace(namespace).list()) : Optional.empty(), 10);

    @Test
    void aSiteFitsWhileTheNamespacesSitesStayWithinTheBudget() throws Exception {
        cache.add(site("ns", "a", 4));
        cache.add(site("other", "big", 10));

        assertThat(validate(Admission.Operation.CREATE, site("ns", "b", 6), null).allowed()).isTrue();
        AdmissionVerdict refused = validate(Admission.Operation.CREATE, site("ns", "b", 7), null);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.message()).isEqualTo("the StaticSites of namespace ns may ask for 10 web-server replicas "
                + "together; the 1 other asks for 4, so this one may have at most 6, not 7 "
                + "(sample.max-replicas-per-namespace)");
    }

    @Test
    void aDenialNamesNoOtherSiteSinceAnyCallerCanForgeAReviewForAnyNamespace() throws Exception {
        cache.add(site("team-a", "launch-plan", 6));
        cache.add(site("team-a", "merger-site", 3));

        AdmissionVerdict refused = validate(Admission.Operation.CREATE, site("team-a", "probe", 2), null);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.message()).doesNotContain("launch-plan").doesNotContain("merger-site")
                .contains("the 2 others ask for 9");
    }

    @Test
    void anUpdateCountsTheOthersOnlyAndSitesBeingDeletedNotAtAll() throws Exception {
        StaticSite a = site("ns", "a", 4);
        cache.add(a);
        StaticSite leaving = site("ns", "leaving", 6);
        leaving.getMetadata().setDeletionTimestamp("2026-11-26T04:00:00Z");
        cache.add(leaving);

        assertThat(validate(Admission.Operation.UPDATE, site("ns", "a", 10), a).allowed()).as("itself not counted twice")
                .isTrue();
    }

    @Test
    void aNamespaceOverItsBudgetMayAlwaysScaleDownOrChangeAnythingElse() throws Exception {
        StaticSite a = site("ns", "a", 9);
        cache.add(a);
        cache.add(site("ns", "b", 9)); // over: admitted together, or the budget was lowered since

        assertThat(validate(Admission.Operation.UPDATE, site("ns", "a", 8), a).allowed()).isTrue();
        assertThat(validate(Admission.Operation.UPDATE, site("ns", "a", 9), a).allowed()).as("unchanged").isTrue();
        assertThat(validate(Admission.Operation.UPDATE, site("ns", "a", 10), a).allowed()).isFalse();
        assertThat(validate(Admission.Operation.DELETE, null, a).allowed()).isTrue();
    }

    @Test
    void aSiteWithAGeneratedNameIsCheckedAgainstAllTheOthers() throws Exception {
        cache.add(site("ns", "a", 8));
        StaticSite unnamed = site("ns", null, 3);
        unnamed.getMetadata().setGenerateName("site-");

        assertThat(validate(Admission.Operation.CREATE, unnamed, null).message()).contains("at most 2, not 3");
    }

    @Test
    void beforeTheCacheIsFilledARiseIsRefusedWithTryAgainAndAFallIsNot() throws Exception {
        synced = false;
        StaticSite a = site("ns", "a", 5);

        AdmissionVerdict refused = validate(Admission.Operation.CREATE, site("ns", "b", 1), null);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.code()).isEqualTo(503);
        assertThat(refused.message()).contains("try again");
        assertThat(validate(Admission.Operation.UPDATE, site("ns", "a", 4), a).allowed()).isTrue();
    }

    private AdmissionVerdict validate(Admission.Operation operation, @Nullable StaticSite object, @Nullable StaticSite old)
            throws Exception {
        return validator.validate(admission(operation, object, old));
    }

    /** The review of a CREATE of site {@code namespace/name} asking for {@code replicas}, as the API server sends it. */
    static Admission<StaticSite> creating(String namespace, String name, int replicas) {
        return admission(Admission.Operation.CREATE, site(namespace, name, replicas), null);
    }

    private static Admission<StaticSite> admission(Admission.Operation operation, @Nullable StaticSite object,
            @Nullable StaticSite old) {
        StaticSite subject = object != null ? object : old;
        return new Admission<>("uid", operation, object, old, false, new UserInfo(),
                new GroupVersionKind(StaticSite.GROUP, StaticSite.KIND, StaticSite.VERSION),
                new GroupVersionResource(StaticSite.GROUP, "staticsites", StaticSite.VERSION), null,
                subject.getMetadata().getNamespace(), subject.getMetadata().getName(), new AdmissionRequest());
    }

    private static StaticSite site(String namespace, @Nullable String name, int replicas) {
        StaticSite site = StaticSite.of(name, replicas, HELLO);
        site.getMetadata().setNamespace(namespace);
        return site;
    }
}
