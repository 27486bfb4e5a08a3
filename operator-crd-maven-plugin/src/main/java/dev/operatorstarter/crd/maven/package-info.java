/**
 * The Maven plugin that runs the CRD generator in a project's build: {@code generate} writes one
 * {@code <plural>.<group>.yaml} per custom resource (default into {@code target/classes/crds}),
 * {@code check} fails the build when committed CRD files are not current. The goals find the
 * project's concrete {@code CustomResource} subclasses themselves, or take the classes named.
 * See {@code docs/crds.md}.
 */
@NullMarked
package dev.operatorstarter.crd.maven;

import org.jspecify.annotations.NullMarked;
