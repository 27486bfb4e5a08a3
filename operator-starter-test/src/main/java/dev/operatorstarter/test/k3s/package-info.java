/**
 * The K3s backend: a K3s server in a container through Testcontainers, for machines with a Docker
 * engine. Loaded only when Testcontainers is on the classpath.
 */
@NullMarked
package dev.operatorstarter.test.k3s;

import org.jspecify.annotations.NullMarked;
