package dev.operatorstarter.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Min, median and max of repeated runs; percentiles of samples. */
record Stats(double min, double median, double max) {

    static Stats of(List<? extends Number> values) {
        List<Double> sorted = new ArrayList<>();
        values.forEach(value -> sorted.add(value.doubleValue()));
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(sorted.get(0), median, sorted.get(n - 1));
    }

    /** The {@code p}-th percentile (nearest rank) of {@code samples}. */
    static double percentile(List<Long> samples, double p) {
        List<Long> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    String format(String unit, double divisor) {
        return String.format("%s / %s / %s %s", round(min / divisor), round(median / divisor), round(max / divisor), unit);
    }

    private static String round(double value) {
        return value >= 100 ? String.format("%,.0f", value) : String.format("%.2f", value);
    }
}
