/**
 * The permissions an operator needs, as RBAC rules: {@link dev.operatorstarter.rbac.AccessRules}
 * computed from what the code declares (each controller's resources, leader election, events,
 * sharding) and from {@link dev.operatorstarter.rbac.Permission} for anything else a reconciler
 * does. The build writes them into a Helm chart ({@code operator-crd-maven-plugin}'s {@code rbac}
 * goal) and the starter asks the API server for each of them before its informers start. The guide
 * is {@code docs/operations/rbac.md}.
 */
@NullMarked
package dev.operatorstarter.rbac;

import org.jspecify.annotations.NullMarked;
