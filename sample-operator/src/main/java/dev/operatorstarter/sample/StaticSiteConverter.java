package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.webhook.ConversionWebhook;
import dev.operatorstarter.webhook.Converter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts StaticSites between {@code v1alpha1} (files as a map) and {@code v1} (files as a list),
 * for the CRD's conversion webhook: the API server stores {@code v1} and calls this for every
 * read and write in {@code v1alpha1}.
 *
 * <p>Nothing is lost either way. A map has no order, so a {@code v1} site whose files are not in
 * name order keeps its order in the annotation {@value #FILE_ORDER} while it is seen as
 * {@code v1alpha1}, and gets it back on the way to {@code v1} (files added meanwhile follow, in
 * name order; removed ones are left out). Status is the same in both versions.
 */
@ConversionWebhook(path = StaticSiteConverter.PATH)
public class StaticSiteConverter implements Converter<StaticSiteV1alpha1, StaticSite> {

    /** Where the API server calls it (the chart's {@code webhooks.conversion.path}). */
    public static final String PATH = "/convert";
    /** The {@code v1} file order, comma-separated, on a {@code v1alpha1} view that needs it. */
    public static final String FILE_ORDER = StaticSite.GROUP + "/file-order";

    @Override
    public StaticSite convert(StaticSiteV1alpha1 source) {
        StaticSite target = new StaticSite();
        target.setMetadata(source.getMetadata());
        Map<String, String> annotations = source.getMetadata().getAnnotations();
        String order = annotations == null ? null : annotations.remove(FILE_ORDER);
        StaticSiteV1alpha1.Spec spec = source.getSpec();
        if (spec != null) {
            target.setSpec(new StaticSiteSpec(files(spec.content(), order), spec.replicas()));
        }
        target.setStatus(source.getStatus());
        return target;
    }

    @Override
    public StaticSiteV1alpha1 convertBack(StaticSite source) {
        StaticSiteV1alpha1 target = new StaticSiteV1alpha1();
        target.setMetadata(source.getMetadata());
        StaticSiteSpec spec = source.getSpec();
        if (spec != null) {
            List<String> names = spec.files().stream().map(SiteFile::name).toList();
            if (!names.equals(names.stream().sorted().toList())) {
                Map<String, String> annotations = source.getMetadata().getAnnotations() == null ? new HashMap<>()
                        : new LinkedHashMap<>(source.getMetadata().getAnnotations());
                annotations.put(FILE_ORDER, String.join(",", names));
                target.getMetadata().setAnnotations(annotations);
            }
            target.setSpec(new StaticSiteV1alpha1.Spec(spec.filesByName(), spec.replicas()));
        }
        target.setStatus(source.getStatus());
        return target;
    }

    /** The map's files in {@code order} (names it does not hold skipped), then the others by name. */
    private static List<SiteFile> files(Map<String, String> content, String order) {
        Map<String, String> left = new HashMap<>(content);
        List<SiteFile> files = new ArrayList<>();
        if (order != null) {
            Arrays.stream(order.split(",")).map(String::strip).forEach(name -> {
                String text = left.remove(name);
                if (text != null) {
                    files.add(new SiteFile(name, text));
                }
            });
        }
        files.addAll(SiteFile.sorted(left));
        return files;
    }
}
