/**
 * The starter holds no code: it is the one dependency that brings {@code operator-runtime}, its
 * auto-configuration and the web client, Jackson and actuator starters onto the classpath.
 */
package dev.operatorstarter.starter;
