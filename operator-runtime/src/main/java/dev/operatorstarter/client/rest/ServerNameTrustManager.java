package dev.operatorstarter.client.rest;

import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts what {@code delegate} trusts, and checks the server's certificate against
 * {@code tls-server-name} only, as Go does with {@code ServerName}: the JDK's own check would
 * also accept a certificate that names the URL's host instead. Names come from the subject
 * alternative names (DNS, with a wildcard only as the whole left-most label, or IP address); the
 * common name is ignored, as in Go since 1.15.
 */
final class ServerNameTrustManager extends X509ExtendedTrustManager {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final X509ExtendedTrustManager delegate;
    private final String serverName;

    ServerNameTrustManager(X509ExtendedTrustManager delegate, String serverName) {
        this.delegate = delegate;
        this.serverName = serverName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkServerTrusted(chain, authType); // the chain, without a name check
        verifyName(chain[0], serverName);
    }

    /** Throws unless {@code certificate} names {@code name} in its subject alternative names. */
    static void verifyName(X509Certificate certificate, String name) throws CertificateException {
        boolean ipLiteral = IPV4.matcher(name).matches() || name.contains(":");
        List<String> names = new ArrayList<>();
        Collection<List<?>> alternatives;
        try {
            alternatives = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            throw new CertificateException("cannot read the server certificate's names", e);
        }
        if (alternatives != null) {
            for (List<?> alternative : alternatives) {
                int type = (Integer) alternative.get(0);
                String value = String.valueOf(alternative.get(1));
                names.add(value);
                if (type == 2 && !ipLiteral && dnsMatches(value, name)) {
                    return;
                }
                if (type == 7 && ipLiteral && sameAddress(value, name)) {
                    return;
                }
            }
        }
        throw new CertificateException("the server certificate " + certificate.getSubjectX500Principal().getName()
                + " is not valid for tls-server-name " + name + "; it names " + names);
    }

    private static boolean dnsMatches(String pattern, String host) {
        String p = trimDot(pattern.toLowerCase(Locale.ROOT));
        String h = trimDot(host.toLowerCase(Locale.ROOT));
        if (p.startsWith("*.")) {
            int dot = h.indexOf('.');
            return dot > 0 && h.substring(dot).equals(p.substring(1));
        }
        return p.equals(h);
    }

    private static String trimDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    private static boolean sameAddress(String a, String b) {
        try {
            // both are literals, so no name lookup happens
            return InetAddress.getByName(a).equals(InetAddress.getByName(b.replace("[", "").replace("]", "")));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        delegate.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        delegate.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
