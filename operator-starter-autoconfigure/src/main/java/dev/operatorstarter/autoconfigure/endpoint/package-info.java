/** The {@code operator} actuator endpoint. */
@NullMarked
package dev.operatorstarter.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
