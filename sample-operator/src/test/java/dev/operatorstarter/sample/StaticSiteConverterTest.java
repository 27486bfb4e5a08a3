package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The StaticSite conversion both ways, and that a round trip loses nothing, the file order included. */
class StaticSiteConverterTest {

    private final StaticSiteConverter converter = new StaticSiteConverter();

    @Test
    void aV1alpha1SiteBecomesAV1SiteWithItsFilesInNameOrderAndTheSameReplicasAndStatus() {
        StaticSiteV1alpha1 old = v1alpha1(Map.of("index.html", "<h1>Hi</h1>", "about.html", "<p>about</p>"), 3);
        old.setStatus(new StaticSiteStatus(4L, 1, "http://s.ns.svc", null));

        StaticSite site = converter.convert(old);

        assertThat(site.getSpec().files()).containsExactly(new SiteFile("about.html", "<p>about</p>"),
                new SiteFile("index.html", "<h1>Hi</h1>"));
        assertThat(site.getSpec().replicas()).isEqualTo(3);
        assertThat(site.getStatus()).isEqualTo(old.getStatus());
        assertThat(site.getMetadata().getName()).isEqualTo("s");
    }

    @Test
    void aV1SiteInNameOrderBecomesAV1alpha1SiteWithoutAnAnnotation() {
        StaticSite site = v1(List.of(new SiteFile("a.html", "a"), new SiteFile("b.html", "b")), 2);

        StaticSiteV1alpha1 old = converter.convertBack(site);

        assertThat(old.getSpec().content()).containsExactly(Map.entry("a.html", "a"), Map.entry("b.html", "b"));
        assertThat(old.getSpec().replicas()).isEqualTo(2);
        assertThat(old.getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    void theV1FileOrderSurvivesARoundTripThroughV1alpha1() {
        List<SiteFile> files = List.of(new SiteFile("index.html", "i"), new SiteFile("b.html", "b"),
                new SiteFile("a.html", "a"));
        StaticSite site = v1(files, 1);
        site.getMetadata().setAnnotations(new HashMap<>(Map.of("team", "web")));

        StaticSiteV1alpha1 old = converter.convertBack(site);
        assertThat(old.getMetadata().getAnnotations()).containsEntry(StaticSiteConverter.FILE_ORDER, "index.html,b.html,a.html")
                .containsEntry("team", "web");

        StaticSite back = converter.convert(old);
        assertThat(back.getSpec().files()).isEqualTo(files);
        assertThat(back.getMetadata().getAnnotations()).as("the order annotation is the conversion's, not kept in v1")
                .containsExactly(Map.entry("team", "web"));
    }

    @Test
    void filesAddedOrRemovedInTheV1alpha1ViewFollowTheRememberedOrderInNameOrder() {
        StaticSiteV1alpha1 old = v1alpha1(Map.of("index.html", "i", "z.html", "z", "c.html", "c"), 1);
        old.getMetadata().setAnnotations(new HashMap<>(Map.of(StaticSiteConverter.FILE_ORDER,
                "index.html,gone.html,z.html")));

        StaticSite site = converter.convert(old);

        assertThat(site.getSpec().files()).extracting(SiteFile::name).containsExactly("index.html", "z.html", "c.html");
        assertThat(site.getMetadata().getAnnotations()).isEmpty();
    }

    private static StaticSiteV1alpha1 v1alpha1(Map<String, String> content, int replicas) {
        StaticSiteV1alpha1 site = new StaticSiteV1alpha1();
        site.setMetadata(new ObjectMeta());
        site.getMetadata().setName("s");
        site.getMetadata().setNamespace("ns");
        site.setSpec(new StaticSiteV1alpha1.Spec(content, replicas));
        return site;
    }

    private static StaticSite v1(List<SiteFile> files, int replicas) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName("s");
        site.getMetadata().setNamespace("ns");
        site.setSpec(new StaticSiteSpec(files, replicas));
        return site;
    }
}
