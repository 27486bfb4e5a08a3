package dev.operatorstarter.client.rest;

/**
 * A client-side token bucket: on average {@code qps} requests per second, with bursts of up to
 * {@code burst}. Each attempt (including retries) takes a token; requests wait, they are never
 * dropped.
 *
 * @param qps the sustained rate, above 0
 * @param burst the bucket size, at least 1
 */
public record RateLimit(double qps, int burst) {

    public RateLimit {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException("qps must be a positive number, was " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, was " + burst);
        }
    }
}
