package dev.operatorstarter.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The YAML files of {@code sample-operator/examples/} and the chart's CRD, from the test classpath. */
final class Examples {

    static final String CRD = "crds/staticsites.sample.operatorstarter.dev.yaml";
    static final String HELLO_SITE = "examples/hello-site.yaml";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private Examples() {
    }

    static <T> T read(String resource, Class<T> type) {
        try (InputStream in = Examples.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the test classpath");
            }
            return YAML.readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
