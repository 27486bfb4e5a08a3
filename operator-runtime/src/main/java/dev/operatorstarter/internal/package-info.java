/**
 * Machinery the runtime's packages share: the JSON mapper, PEM reading, backoff, the token
 * bucket, duration checks and daemon thread factories.
 *
 * <p><b>Not API.</b> Nothing here is meant for applications, and any of it may change or go away
 * in any release, a patch release included. Types are public only because Java has no other way to
 * share them across the runtime's packages; an architecture test keeps this package from depending
 * on any other package of the runtime except {@code dev.operatorstarter.time}, and keeps the
 * starter's and sample's code from using it.
 */
@NullMarked
package dev.operatorstarter.internal;

import org.jspecify.annotations.NullMarked;
