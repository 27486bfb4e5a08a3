package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.webhook.Admission;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
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
        List<SiteFile> edited = new ArrayList<>(first.getSpec().files());
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

    @Test
    void anUpdateThatLeavesTheFilesAsTheyWereChangesNothingEvenWithoutAnIndex() {
        List<SiteFile> files = List.of(new SiteFile("about.html", "a"));
        StaticSite old = site(files);
        StaticSite relabelled = site(files);
        relabelled.getMetadata().setFinalizers(List.of(StaticSiteReconciler.FINALIZER));

        assertThat(defaulter.mutate(admission(Admission.Operation.UPDATE, relabelled, old)).object().getSpec().files())
                .as("the operator's finalizer patch, a label edit: no new spec, no rollout").isEqualTo(files);
        StaticSite edited = site(List.of(new SiteFile("about.html", "b")));
        assertThat(defaulter.mutate(admission(Admission.Operation.UPDATE, edited, old)).object().getSpec().files())
                .extracting(SiteFile::name).containsExactly("index.html", "about.html");
    }

    @Test
    void aSiteWithAGeneratedNameIsTitledByItsPrefix() {
        StaticSite site = site(List.of(new SiteFile("a.html", "a")));
        site.getMetadata().setName(null);
        site.getMetadata().setGenerateName("blog-");

        String page = defaulter.mutate(admission(Admission.Operation.CREATE, site, null)).object().getSpec().files().get(0)
                .content();
        assertThat(page).contains("<title>blog</title>");
    }

    @Test
    void noPageIsWrittenWhereTheSchemaHasTheLastWord() {
        assertThat(mutated(List.of()).getSpec().files()).as("no files: the schema refuses the site").isEmpty();
        List<SiteFile> most = IntStream.range(0, 64).mapToObj(i -> new SiteFile(i + ".html", "x"))
                .toList();
        assertThat(mutated(most).getSpec().files()).as("a 65th file would be refused as one too many").isEqualTo(most);
    }

    private StaticSite mutated(List<SiteFile> files) {
        return defaulter.mutate(admission(Admission.Operation.CREATE, site(files), null)).object();
    }

    private static StaticSite site(List<SiteFile> files) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName("s");
        site.getMetadata().setNamespace("ns");
        site.setSpec(new StaticSiteSpec(files, 1));
        return site;
    }

    private static Admission<StaticSite> admission(Admission.Operation operation, StaticSite site, StaticSite old) {
        return new Admission<>("uid", operation, site, old, false,
                new UserInfo(), new GroupVersionKind(StaticSite.GROUP, StaticSite.KIND, StaticSite.VERSION),
                new GroupVersionResource(StaticSite.GROUP, "staticsites", StaticSite.VERSION), null, "ns",
                site.getMetadata().getName(), new AdmissionRequest());
    }
}
