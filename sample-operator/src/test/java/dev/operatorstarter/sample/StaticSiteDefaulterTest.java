package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.webhook.Admission;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The index page the mutating webhook writes, rewrites, and never writes over a page of the user's. */
class StaticSiteDefaulterTest {

    private final StaticSiteDefaulter defaulter = new StaticSiteDefaulter();

    @Test
    void aSiteWithoutAnIndexGetsAPageListingItsFilesFirst() {
        StaticSite site = mutated(List.of(new SiteFile("b.html", "b"), new SiteFile("a&b.html", "a")));

        assertThat(site.getSpec().files()).extracting(SiteFile::name).containsExactly("index.html", "b.html", "a&b.html");
        String page = site.getSpec().files().get(0).content();
        assertThat(page).startsWith(StaticSiteDefaulter.MARKER).contains("<title>s</title>")
                .contains("<a href=\"b.html\">b.html</a>").contains("<a href=\"a&amp;b.html\">a&amp;b.html</a>");
    }

    @Test
    void theWebhooksOwnPageIsRewrittenWhenTheFilesChange() {
        StaticSite first = mutated(List.of(new SiteFile("a.html", "a")));
        List<SiteFile> edited = new java.util.ArrayList<>(first.getSpec().files());
        edited.add(new SiteFile("b.html", "b"));

        StaticSite second = mutated(edited);

        assertThat(second.getSpec().files()).extracting(SiteFile::name).containsExactly("index.html", "a.html", "b.html");
        assertThat(second.getSpec().files().get(0).content()).contains("b.html");
        assertThat(mutated(second.getSpec().files()).getSpec()).as("idempotent").isEqualTo(second.getSpec());
    }

    @Test
    void aPageOfTheUsersOwnIsNeverTouched() {
        List<SiteFile> files = List.of(new SiteFile("about.html", "a"), new SiteFile("index.html", "<h1>Mine</h1>"));

        assertThat(mutated(files).getSpec().files()).isEqualTo(files);
    }

    private StaticSite mutated(List<SiteFile> files) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName("s");
        site.getMetadata().setNamespace("ns");
        site.setSpec(new StaticSiteSpec(files, 1));
        Admission<StaticSite> admission = new Admission<>("uid", Admission.Operation.CREATE, site, null, false,
                new UserInfo(), new GroupVersionKind(StaticSite.GROUP, StaticSite.KIND, StaticSite.VERSION),
                new GroupVersionResource(StaticSite.GROUP, "staticsites", StaticSite.VERSION), null, "ns", "s",
                new AdmissionRequest());
        return defaulter.mutate(admission).object();
    }
}
