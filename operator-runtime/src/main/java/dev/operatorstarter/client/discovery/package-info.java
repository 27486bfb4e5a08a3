/**
 * Discovery: the server's version, groups and resources, cached, with a REST mapper from kind to
 * resource and scope ({@link dev.operatorstarter.client.discovery.DiscoveryClient}).
 */
@NullMarked
package dev.operatorstarter.client.discovery;

import org.jspecify.annotations.NullMarked;
