/**
 * Informer chaos runs: ours, fabric8's and the official client's informers side by side, each in a
 * JVM of its own behind a fault proxy of its own, under the same churn and the same faults, as
 * repeated trials. {@link dev.operatorstarter.benchmarks.chaos.InformerChaos} drives a run;
 * {@link dev.operatorstarter.benchmarks.chaos.ChaosSubject} is one subject's process. Results and
 * the commands that reproduce them are in {@code docs/reliability/informers.md}.
 */
package dev.operatorstarter.benchmarks.chaos;
