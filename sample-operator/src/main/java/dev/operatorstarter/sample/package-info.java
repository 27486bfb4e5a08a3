/**
 * The sample operator: a custom resource and its reconciler, built on the starter and deployed by
 * the Helm chart in {@code helm/}.
 */
package dev.operatorstarter.sample;
