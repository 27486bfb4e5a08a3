/** {@code @ServiceConnection} support for a K3s Testcontainers container. */
@NullMarked
package dev.operatorstarter.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
