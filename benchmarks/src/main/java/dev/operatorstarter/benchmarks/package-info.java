/**
 * JMH micro benchmarks and side-by-side macro benchmarks against fabric8 and the official Java
 * client. Results and the commands that reproduce them are in {@code docs/performance.md}.
 */
package dev.operatorstarter.benchmarks;
