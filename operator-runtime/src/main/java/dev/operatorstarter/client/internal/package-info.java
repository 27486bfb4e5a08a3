/** Machinery shared by the client packages; not API, may change without notice. */
@NullMarked
package dev.operatorstarter.client.internal;

import org.jspecify.annotations.NullMarked;
