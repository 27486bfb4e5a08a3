package dev.operatorstarter.client.rest;

/** This library's version, from the jar manifest ({@code dev} when run from classes). */
final class Version {

    private Version() {
    }

    static String current() {
        String version = Version.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
