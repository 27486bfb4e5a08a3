package dev.operatorstarter.test.local;

import java.util.ArrayList;
import java.util.List;

/** kube-apiserver as the local API server runs it: its command line. */
final class KubeApiServer {

    private KubeApiServer() {
    }

    /**
     * kube-apiserver's flags: TLS from this run's CA, etcd as the client of its own certificate,
     * RBAC, a service-account signing key so that the TokenRequest API issues real tokens, and
     * verified TLS toward the nodes' kubelets (KWOK's server, when nodes run);
     * {@code extra} comes last, so that it wins over the defaults.
     */
    static List<String> arguments(RunLayout layout, String etcdUrl, int port, List<String> extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--etcd-servers=" + etcdUrl,
                "--etcd-cafile=" + layout.caCert,
                "--etcd-certfile=" + layout.etcdClientCert,
                "--etcd-keyfile=" + layout.etcdClientKey,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + port,
                "--cert-dir=" + layout.apiServerCerts,
                "--tls-cert-file=" + layout.servingCert,
                "--tls-private-key-file=" + layout.servingKey,
                "--client-ca-file=" + layout.caCert,
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + layout.serviceAccountPublicKey,
                "--service-account-signing-key-file=" + layout.serviceAccountKey,
                "--service-cluster-ip-range=10.0.0.0/24",
                "--endpoint-reconciler-type=none", // a loopback address is not a valid endpoint
                "--allow-privileged=true",
                // The kubelets are KWOK's server (LocalNodes) on 127.0.0.1, serving this run's certificate:
                // logs, exec, attach and port-forward are proxied to it over verified TLS.
                "--kubelet-certificate-authority=" + layout.caCert,
                "--kubelet-client-certificate=" + layout.kubeletClientCert,
                "--kubelet-client-key=" + layout.kubeletClientKey,
                "--kubelet-preferred-address-types=InternalIP",
                "--profiling=false",
                // On SIGTERM, end open watches within a second instead of waiting up to 60 s
                // for them to finish (they never do): a restart or close takes 3 s, not 13 s.
                "--shutdown-watch-termination-grace-period=1s"));
        arguments.addAll(extra); // later flags win
        return List.copyOf(arguments);
    }
}
