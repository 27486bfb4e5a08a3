package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactedUriTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://me:hunter2@proxy:3128            | http://***@proxy:3128",
        "https://me@api.example.com:443/base     | https://***@api.example.com:443/base",
        "socks5://me:hunter2@[fd00::1]:1080      | socks5://***@[fd00::1]:1080",
        "https://api.example.com:6443            | https://api.example.com:6443",
        "https://h/api/v1/pods?labelSelector=a%3Db&watch=true | https://h/api/v1/pods?labelSelector=a%3Db&watch=true",
        "https://h/x?access_token=hunter2&limit=5 | https://h/x?access_token=***&limit=5",
        "https://h/x?Password=hunter2            | https://h/x?Password=***",
        "https://h/x#hunter2                     | https://h/x",
        // parses with host "me" and port 1234, but was meant as the password "1234/hunter2"
        "http://me:1234/hunter2@proxy:3128       | http://***@proxy:3128",
    })
    void hidesUserInfoCredentialParametersAndFragmentsButKeepsWhere(String url, String printed) {
        assertThat(new RedactedUri(URI.create(url))).hasToString(printed);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // not valid URLs: a password with '/', '?', '#' or a space still never shows
        "http://me:hun/ter2@proxy:3128     | http://***@proxy:3128",
        "http://me:hun?ter2@proxy:3128     | http://***@proxy:3128",
        "http://me:hun#ter2@proxy:3128     | http://***@proxy:3128",
        "http://me:hun ter2@proxy:3128     | http://***@proxy:3128",
        "me:hunter2@proxy:3128             | ***@proxy:3128",
        "proxy:3128                        | proxy:3128",
    })
    void hidesUserInfoInTextThatIsNotAValidUrl(String url, String printed) {
        assertThat(RedactedUri.text(url)).isEqualTo(printed).doesNotContain("hun");
    }
}
