package dev.operatorstarter.test.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestMatcherTest {

    @ParameterizedTest
    @CsvSource({
        "/api/v1/namespaces/a/configmaps?watch=true, true",
        "/api/v1/namespaces/a/configmaps?labelSelector=x&watch=1&resourceVersion=5, true",
        "/api/v1/namespaces/a/configmaps?watch=True, true",
        "/api/v1/namespaces/a/configmaps?watch=false, false",
        "/api/v1/namespaces/a/configmaps?limit=500, false",
        "/api/v1/namespaces/a/configmaps?sendWatch=true, false",
        "/api/v1/watch/namespaces/a/configmaps, true",
        "/apis/apps/v1/watch/deployments, true",
        "/api/v1/namespaces/watch/configmaps, false",
        "/api/v1/namespaces/a/configmaps/watch, false",
    })
    void aWatchIsRecognisedByItsQueryOrItsOldPathForm(String target, boolean watch) {
        assertThat(RequestMatcher.isWatch(target)).isEqualTo(watch);
    }

    @ParameterizedTest
    @CsvSource({
        "GET, /api/v1/namespaces/a/configmaps, true",
        "get, /api/v1/namespaces/a/configmaps/one?x=1, true",
        "POST, /api/v1/namespaces/a/configmaps, false",
        "GET, /api/v1/namespaces/a/configmaps?watch=true, false",
        "GET, /api/v1/namespaces/b/configmaps, false",
    })
    void aPrefixMatcherNarrowedToGetsThatAreNotWatchesMatchesListsAndGetsOnly(String method, String target,
            boolean matches) {
        RequestMatcher lists = RequestMatcher.pathPrefix("/api/v1/namespaces/a/configmaps").method("GET").excludingWatches();

        assertThat(lists.matches(method, target)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({
        "/api/v1/namespaces/a/configmaps?watch=true, true",
        "/api/v1/namespaces/a/configmaps, false",
        "/api/v1/namespaces/a/secrets?watch=true, false",
    })
    void aRegexMatcherForWatchesMatchesTheWholePathWithoutTheQuery(String target, boolean matches) {
        RequestMatcher watches = RequestMatcher.pathMatching("/api/v1/namespaces/[^/]+/configmaps").watchesOnly();

        assertThat(watches.matches("GET", target)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({"GET", "DELETE", "PATCH"})
    void allMatchesEveryRequest(String method) {
        assertThat(RequestMatcher.all().matches(method, "/anything?watch=true")).isTrue();
    }

    @ParameterizedTest
    @CsvSource({
        "/api/v1/namespaces/a/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan, true",
        "/api/v1/namespaces/a/configmaps?sendInitialEvents=true&watch=1, true",
        "/api/v1/namespaces/a/configmaps?watch=true&sendInitialEvents=false, false",
        "/api/v1/namespaces/a/configmaps?watch=true&resourceVersion=5, false",
        "/api/v1/namespaces/a/configmaps?watch=true, false",
        "/api/v1/namespaces/a/configmaps?sendInitialEvents=true, false",
        "/api/v1/namespaces/a/configmaps?watch=true&send%49nitialEvents=%74rue, true",
    })
    void aQueryParameterMatcherMatchesOnlyRequestsWhoseQueryHasThatValue(String target, boolean matches) {
        RequestMatcher streamingLists = RequestMatcher.pathPrefix("/api/v1/namespaces/a/configmaps").watchesOnly()
                .queryParameter("sendInitialEvents", "true");

        assertThat(streamingLists.matches("GET", target)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({
        "/api/v1/pods?labelSelector=app%3Dweb&limit=500, true",
        "/api/v1/pods?limit=500&labelSelector=app%3Dweb, true",
        "/api/v1/pods?labelSelector=app%3Dweb, false",
        "/api/v1/pods?labelSelector=app%3Ddb&limit=500, false",
    })
    void queryParametersAddUpAndEachMustBePresent(String target, boolean matches) {
        RequestMatcher firstPages = RequestMatcher.all().queryParameter("labelSelector", "app=web")
                .queryParameter("limit", "500");

        assertThat(firstPages.matches("GET", target)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({"GET", "POST"})
    void narrowingByMethodOrWatchesKeepsTheQueryParameters(String method) {
        RequestMatcher matcher = RequestMatcher.all().queryParameter("dryRun", "All").method(method).excludingWatches();

        assertThat(matcher.matches(method, "/api/v1/namespaces/a/configmaps?dryRun=All")).isTrue();
        assertThat(matcher.matches(method, "/api/v1/namespaces/a/configmaps")).isFalse();
    }
}
