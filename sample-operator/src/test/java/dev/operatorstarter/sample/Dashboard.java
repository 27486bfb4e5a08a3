package dev.operatorstarter.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The chart's Grafana dashboard ({@code dashboards/sample-operator.json}), read for tests. */
final class Dashboard {

    /**
     * A series name in PromQL: a metric of the runtime, of the JVM or of the process, suffix included.
     * Not the sharding row's ({@code controller_sharding_*}): the sample runs unsharded, so its scrape has
     * none of them; their names are {@code PrometheusNamesTest}'s and {@code ChartTest}'s.
     */
    private static final Pattern SERIES = Pattern.compile("\\b((?:controller_runtime|workqueue|rest_client|leader_election"
            + "|reflector|watch|informer|jvm|process)_[a-z_]+)");

    /** One query of one panel. */
    record Query(String panel, String refId, String expr) {
    }

    private final JsonNode json;

    private Dashboard(JsonNode json) {
        this.json = json;
    }

    static Dashboard shipped() throws IOException {
        return parse(Files.readString(Chart.DIRECTORY.resolve("dashboards/sample-operator.json")));
    }

    static Dashboard parse(String text) {
        return new Dashboard(JsonMapper.builder().build().readTree(text));
    }

    JsonNode json() {
        return json;
    }

    /** Every panel's queries, rows' collapsed panels included. */
    List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(panel.path("title").asString(), target.path("refId").asString(),
                        target.path("expr").asString()));
            }
        }
        return queries;
    }

    /** Every panel, those inside collapsed rows included. */
    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : json.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    /** The series the queries name, with their suffix ({@code _bucket}, {@code _sum}, {@code _count}, {@code _max}). */
    Set<String> series() {
        Set<String> series = new TreeSet<>();
        for (Query query : queries()) {
            Matcher matcher = SERIES.matcher(query.expr());
            while (matcher.find()) {
                series.add(matcher.group(1));
            }
        }
        return series;
    }
}
