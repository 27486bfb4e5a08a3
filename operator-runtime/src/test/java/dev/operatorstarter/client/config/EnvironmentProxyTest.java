package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://me:hunter2@proxy:3128/x y | http://***@proxy:3128/x y | is not a valid URL",
        "http://me:hun ter2@proxy:3128    | http://***@proxy:3128     | is not a valid URL",
        "ftp://me:hunter2@proxy:21        | ftp://***@proxy:21        | must be an http:// or socks5:// URL"})
    void aBadProxyIsNamedWithItsVariableButNeverWithItsPassword(String value, String printed, String problem) {
        assertThatThrownBy(() -> EnvironmentProxy.forServer(URI.create("https://api:6443"), Map.of("HTTPS_PROXY", value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("the proxy " + printed + " in HTTPS_PROXY " + problem)
                .hasNoCause()
                .message().doesNotContain("hunter2", "hun ter2");
    }

    @org.junit.jupiter.api.Test
    void anHttpsProxyIsRefusedRatherThanUsedInCleartext() {
        assertThatThrownBy(() -> EnvironmentProxy.forServer(URI.create("https://api:6443"),
                Map.of("HTTPS_PROXY", "https://me:hunter2@proxy:443")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("the proxy https://***@proxy:443 in HTTPS_PROXY is an https:// proxy, which this "
                        + "client cannot use")
                .hasMessageContaining("use an http:// or socks5:// proxy")
                .message().doesNotContain("hunter2");
    }

    @ParameterizedTest
    @CsvSource({"socks5://proxy:1080", "http://proxy:3128"})
    void httpAndSocks5ProxiesAreUsed(String value) {
        assertThat(EnvironmentProxy.forServer(URI.create("https://api:6443"), Map.of("HTTPS_PROXY", value)))
                .hasToString(value);
    }
}
