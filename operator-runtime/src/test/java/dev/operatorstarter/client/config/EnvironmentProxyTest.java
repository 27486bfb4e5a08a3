package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EnvironmentProxyTest {

    @ParameterizedTest(name = "{0} with NO_PROXY={1}: proxied={2}")
    @CsvSource(delimiter = '|', value = {
        "https://api.example.com:6443 | ''                         | true",
        "https://api.example.com:6443 | example.com                | false",
        "https://api.example.com:6443 | .example.com               | false",
        "https://api.example.com:6443 | other.com,api.example.com:6443 | false",
        "https://notexample.com       | example.com                | true",
        "https://10.1.2.3:6443        | 10.0.0.0/8                 | false",
        "https://10.1.2.3:6443        | 192.168.0.0/16             | true",
        "https://10.1.2.3:6443        | 10.1.2.3                   | false",
        "https://10.1.2.3:6443        | '*'                        | false",
        "https://127.0.0.1:6443       | ''                         | false",
        "https://localhost:6443       | ''                         | false",
        "https://[fd00::1]:6443       | fd00::/8                   | false"})
    void noProxyDecidesWhichServersGoThroughTheProxy(String server, String noProxy, boolean proxied) {
        URI proxy = EnvironmentProxy.forServer(URI.create(server),
                Map.of("HTTPS_PROXY", "http://proxy:3128", "NO_PROXY", noProxy));

        assertThat(proxy != null).isEqualTo(proxied);
        if (proxied) {
            assertThat(proxy).hasToString("http://proxy:3128");
        }
    }

    @ParameterizedTest
    @CsvSource({"https://api:6443, https_proxy, proxy:3128, http://proxy:3128",
        "http://api:8080, HTTP_PROXY, http://plain:80, http://plain:80",
        "http://api:8080, HTTPS_PROXY, http://ignored:1, ''"})
    void theSchemeOfTheServerPicksTheVariable(String server, String variable, String value, String expected) {
        URI proxy = EnvironmentProxy.forServer(URI.create(server), Map.of(variable, value));

        assertThat(proxy == null ? "" : proxy.toString()).isEqualTo(expected);
    }
}
