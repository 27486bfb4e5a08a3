package dev.operatorstarter.autoconfigure.webhook;

import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The {@code caBundle} the injector writes: a PEM bundle that extends what the object carries
 * rather than replacing it, so that the API server keeps trusting every server it may still call.
 * The CAs to serve with come first (the new one first during a rotation); then the certificates
 * already in the bundle that still parse and have not expired, newest first (by {@code notBefore}),
 * each once; at most {@value #MAX_CERTIFICATES} in all. What is left out: an expired certificate,
 * a duplicate, the oldest ones beyond the bound, and anything that is not a readable certificate
 * (reported, never repeated, so the caller can log it without leaking what was there).
 *
 * <p>So several replicas with generated certificates, each with a CA of its own, all stay
 * trusted: each adds its CA and keeps the others'. A bundle that already holds the CAs to serve
 * with and nothing to drop is left as it is, in whatever order the other writers left it, so
 * replicas never rewrite one another's bundle back and forth.
 */
final class CaBundle {

    /**
     * The most certificates a bundle keeps: room for the CAs of several replicas and of a rolling
     * update, small enough that a CA of a pod that is gone does not linger for long.
     */
    static final int MAX_CERTIFICATES = 8;

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----",
            Pattern.DOTALL);

    private CaBundle() {
    }

    /**
     * The merge of a bundle with the CAs to serve with.
     *
     * @param pem the bundle to write; null when the object's bundle already is what it should be
     * @param dropped what was left out because it could not be read, a sentence each (never the content)
     */
    record Merge(@Nullable String pem, List<String> dropped) {

        Merge {
            dropped = List.copyOf(dropped);
        }

        /** Whether the object must be written. */
        boolean changes() {
            return pem != null;
        }
    }

    /**
     * The bundle {@code existing} should become so that it carries {@code required}.
     *
     * @param required the CAs to serve with (PEM), first in the bundle and always kept
     * @param existing the object's bundle (PEM), null or empty when it has none
     * @param now the time against which expiry is judged
     */
    static Merge merge(String required, @Nullable String existing, Instant now) {
        List<String> dropped = new ArrayList<>();
        Set<X509Certificate> wanted = new LinkedHashSet<>(certificates(required, new ArrayList<>()));
        List<X509Certificate> present = existing == null ? List.of() : certificates(existing, dropped);
        int room = Math.max(0, MAX_CERTIFICATES - wanted.size());
        present.stream().filter(certificate -> !wanted.contains(certificate))
                .filter(certificate -> now.isBefore(certificate.getNotAfter().toInstant())).distinct()
                .sorted(Comparator.comparing(X509Certificate::getNotBefore).reversed()).limit(room)
                .forEach(wanted::add);
        boolean same = dropped.isEmpty() && present.size() == wanted.size() && new HashSet<>(present).equals(wanted);
        if (same) {
            return new Merge(null, dropped);
        }
        StringBuilder pem = new StringBuilder();
        wanted.forEach(certificate -> pem.append(ServingKey.pem(certificate)));
        return new Merge(pem.toString(), dropped);
    }

    /**
     * The certificates of a PEM text, in order; each block that is not a readable certificate, and
     * text outside the blocks, is described in {@code unreadable} and skipped.
     */
    static List<X509Certificate> certificates(String pem, List<String> unreadable) {
        List<X509Certificate> certificates = new ArrayList<>();
        Matcher block = BLOCK.matcher(pem);
        int end = 0;
        int outside = 0;
        while (block.find()) {
            outside += pem.substring(end, block.start()).strip().length();
            end = block.end();
            if (!"CERTIFICATE".equals(block.group(1))) {
                unreadable.add("a PEM block of type " + block.group(1) + ", not CERTIFICATE");
                continue;
            }
            try {
                byte[] der = Base64.getMimeDecoder().decode(block.group(2).strip());
                certificates.add((X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(der)));
            } catch (IllegalArgumentException | CertificateException | ClassCastException e) {
                unreadable.add("a CERTIFICATE block that does not parse (" + e.getClass().getSimpleName() + ")");
            }
        }
        outside += pem.substring(end).strip().length();
        if (outside > 0) {
            unreadable.add(outside + " characters outside any PEM block");
        }
        return certificates;
    }
}
