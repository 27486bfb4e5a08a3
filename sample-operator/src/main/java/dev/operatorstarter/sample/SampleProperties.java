package dev.operatorstarter.sample;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The sample operator's own settings, under {@code sample.*}.
 *
 * @param siteImage the web-server image each site's Deployment runs; it must serve
 *        {@code /usr/share/nginx/html} on port 8080 as a non-root user
 * @param siteIndex where the directory of every site's address is kept
 * @param maxReplicasPerNamespace how many web-server replicas the StaticSites of one namespace may
 *        ask for together; the validating webhook ({@link StaticSiteValidator}) refuses a site that
 *        would go over it; 20 by default
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("nginxinc/nginx-unprivileged:1.27-alpine") String siteImage,
        @DefaultValue IndexLocation siteIndex, @DefaultValue("20") int maxReplicasPerNamespace) {

    public SampleProperties {
        if (maxReplicasPerNamespace < 0) {
            throw new IllegalArgumentException("sample.max-replicas-per-namespace must be 0 or more, was "
                    + maxReplicasPerNamespace);
        }
    }

    /** The defaults of every property, for the operator in plain Java ({@link PlainJavaSampleOperator}). */
    public static SampleProperties defaults() {
        return new SampleProperties("nginxinc/nginx-unprivileged:1.27-alpine", new IndexLocation(null, "static-sites"),
                20);
    }

    /**
     * The site index ConfigMap.
     *
     * @param namespace its namespace; default the client's namespace (the operator pod's own in a cluster)
     * @param name its name
     */
    public record IndexLocation(@Nullable String namespace, @DefaultValue("static-sites") String name) {
    }
}
