package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.MutatingHandler;
import dev.operatorstarter.webhook.Mutation;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives every StaticSite an {@code index.html}: a site without one gets a page linking to its
 * files, written into {@code spec.files} as the site is created or its files change, so what is
 * stored is what is served.
 *
 * <p>A schema default cannot do this: it is a constant, and this page depends on the site's other
 * files. The page starts with {@value #MARKER}; while it does, it is the webhook's, and rewritten
 * whenever the files change. Write an {@code index.html} of your own (without the marker) and it
 * is never touched. An update that leaves the files as they were (labels, annotations, finalizers)
 * is left alone, so it never changes the spec nor rolls the web servers. A site with no other file
 * gets no page (the schema refuses it), nor one with the most files the schema allows.
 */
@AdmissionWebhook(path = StaticSiteDefaulter.PATH)
public class StaticSiteDefaulter implements MutatingHandler<StaticSite> {

    /** Where the API server calls it (the chart's {@code webhooks.mutating.path}). */
    public static final String PATH = "/default-staticsites";
    /** The index page's name. */
    public static final String INDEX = "index.html";
    /** The first line of a page this webhook wrote. */
    public static final String MARKER = "<!-- index written by the sample operator: it lists the site's files -->";
    /** The schema's limit of files a site may have. */
    private static final int MAX_FILES = 64;

    @Override
    public Mutation<StaticSite> mutate(Admission<StaticSite> admission) {
        StaticSite site = admission.subject();
        StaticSiteSpec spec = site.getSpec();
        if (spec == null) {
            return Mutation.allow(site);
        }
        StaticSite old = admission.oldObject();
        if (old != null && old.getSpec() != null && old.getSpec().files().equals(spec.files())) {
            return Mutation.allow(site); // the files did not change: neither does their index
        }
        List<SiteFile> files = new ArrayList<>(spec.files());
        int index = indexOf(files);
        String content = index < 0 ? null : files.get(index).content();
        if (index >= 0 && (content == null || !content.startsWith(MARKER))) {
            return Mutation.allow(site); // the user's own page
        }
        List<SiteFile> others = files.stream().filter(file -> file != null && !INDEX.equals(file.name())).toList();
        if (others.isEmpty() || (index < 0 && files.size() >= MAX_FILES)) {
            return Mutation.allow(site); // the schema refuses it, or would refuse the page
        }
        SiteFile page = new SiteFile(INDEX, page(title(site), others));
        if (index >= 0) {
            files.set(index, page);
        } else {
            files.add(0, page);
        }
        site.setSpec(new StaticSiteSpec(files, spec.replicas()));
        return Mutation.allow(site);
    }

    /** The site's name; on a create with {@code generateName}, before the name is made, that prefix. */
    private static String title(StaticSite site) {
        String name = site.getMetadata().getName();
        if (name != null && !name.isBlank()) {
            return name;
        }
        String prefix = site.getMetadata().getGenerateName();
        return prefix == null || prefix.isBlank() ? "Files" : prefix.replaceAll("-+$", "");
    }

    private static int indexOf(List<SiteFile> files) {
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i) != null && INDEX.equals(files.get(i).name())) {
                return i;
            }
        }
        return -1;
    }

    /** A page listing {@code files}, with the names escaped (they hold only {@code [-._a-zA-Z0-9]} when valid). */
    static String page(String site, List<SiteFile> files) {
        StringBuilder page = new StringBuilder(MARKER).append('\n')
                .append("<!doctype html>\n<title>").append(escape(site)).append("</title>\n<h1>")
                .append(escape(site)).append("</h1>\n<ul>\n");
        files.forEach(file -> page.append("  <li><a href=\"").append(escape(file.name())).append("\">")
                .append(escape(file.name())).append("</a></li>\n"));
        return page.append("</ul>\n").toString();
    }

    private static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
