/**
 * Custom resource classes, one per Java type shape, that the generator's golden-file test and the
 * API-server test run through ({@link dev.operatorstarter.crd.generator.shapes.Shapes#all()}).
 */
package dev.operatorstarter.crd.generator.shapes;
