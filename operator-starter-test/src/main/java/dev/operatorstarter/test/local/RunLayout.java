package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.OwnerOnly;
import dev.operatorstarter.test.internal.Pki;
import dev.operatorstarter.test.internal.Tls;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * The files of one run of the local API server: the certificate authority generated for it and the
 * key material it issued (serving, etcd client, service-account signing key), the kubeconfigs of
 * the admin and of kube-controller-manager (which kube-scheduler and KWOK share), and the folders for etcd's data, kube-apiserver's own
 * certificates and the processes' logs.
 */
final class RunLayout {

    final Pki pki;
    final Pki.Issued admin;
    final Path caCert;
    final Path servingCert;
    final Path servingKey;
    final Path etcdClientCert;
    final Path etcdClientKey;
    final Path serviceAccountKey;
    final Path serviceAccountPublicKey;
    /** kube-apiserver's client certificate toward the kubelets (KWOK's server ignores it, a kubelet would check it). */
    final Path kubeletClientCert;
    final Path kubeletClientKey;
    final Path adminKubeconfig;
    final Path controllerManagerKubeconfig;
    final Path logs;
    final Path etcdData;
    final Path apiServerCerts;
    /** KWOK's work folder: its Stages and CRDs ({@code kwok defaults}); only with nodes. */
    final Path kwok;

    private RunLayout(Path run, Pki pki, Pki.Issued admin) {
        this.pki = pki;
        this.admin = admin;
        Path pkiDir = run.resolve("pki");
        this.caCert = pkiDir.resolve("ca.crt");
        this.servingCert = pkiDir.resolve("serving.crt");
        this.servingKey = pkiDir.resolve("serving.key");
        this.etcdClientCert = pkiDir.resolve("etcd-client.crt");
        this.etcdClientKey = pkiDir.resolve("etcd-client.key");
        this.serviceAccountKey = pkiDir.resolve("service-account.key");
        this.serviceAccountPublicKey = pkiDir.resolve("service-account.pub");
        this.kubeletClientCert = pkiDir.resolve("kubelet-client.crt");
        this.kubeletClientKey = pkiDir.resolve("kubelet-client.key");
        this.adminKubeconfig = run.resolve("kubeconfig");
        this.controllerManagerKubeconfig = run.resolve("controller-manager.kubeconfig");
        this.logs = run.resolve("logs");
        this.etcdData = run.resolve("etcd-data");
        this.apiServerCerts = run.resolve("apiserver-certs");
        this.kwok = run.resolve("kwok");
    }

    /** Generates this run's certificate authority and key material, and writes them and the kubeconfigs. */
    static RunLayout create(Path run, URI server) throws IOException {
        Pki pki = Pki.newAuthority("operator-starter-test-ca");
        Pki.Issued admin = pki.client("operator-starter-admin", "system:masters");
        RunLayout layout = new RunLayout(run, pki, admin);
        Files.createDirectories(layout.caCert.getParent());
        Files.createDirectories(layout.logs);
        Pki.Issued serving = pki.serving("kube-apiserver",
                List.of("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local"),
                List.of("127.0.0.1", "10.0.0.1"));
        Pki.Issued etcdClient = pki.client("kube-apiserver-etcd-client", "system:masters");
        Pki.SigningKey serviceAccount = Pki.serviceAccountKeyPair();
        Files.writeString(layout.caCert, pki.caPem());
        Files.writeString(layout.servingCert, serving.certificatePem());
        OwnerOnly.write(layout.servingKey, serving.keyPem());
        Files.writeString(layout.etcdClientCert, etcdClient.certificatePem());
        OwnerOnly.write(layout.etcdClientKey, etcdClient.keyPem());
        OwnerOnly.write(layout.serviceAccountKey, serviceAccount.privatePem());
        Files.writeString(layout.serviceAccountPublicKey, serviceAccount.publicPem());
        Pki.Issued kubeletClient = pki.client("kube-apiserver-kubelet-client", "system:masters");
        Files.writeString(layout.kubeletClientCert, kubeletClient.certificatePem());
        OwnerOnly.write(layout.kubeletClientKey, kubeletClient.keyPem());
        Kubeconfig.write(layout.adminKubeconfig, "operator-starter-local", server, pki.caPem(),
                admin.certificatePem(), admin.keyPem(), null);
        // The controller manager acts as a cluster administrator: its controllers need broad
        // rights, and this harness does not split credentials per controller.
        Pki.Issued controllerManager = pki.client("system:kube-controller-manager", "system:masters");
        Kubeconfig.write(layout.controllerManagerKubeconfig, "kube-controller-manager", server, pki.caPem(),
                controllerManager.certificatePem(), controllerManager.keyPem(), null);
        return layout;
    }

    SSLContext adminSsl() {
        return Tls.sslContext(pki.caPem(), admin.certificatePem(),
                admin.keyPem());
    }

    /** The API server's own etcd client certificate, for maintenance calls to etcd. */
    SSLContext etcdClientSsl() {
        try {
            return Tls.sslContext(pki.caPem(), Files.readString(etcdClientCert), Files.readString(etcdClientKey));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the etcd client certificate: " + e.getMessage(), e);
        }
    }

    /**
     * The flags kube-controller-manager and kube-scheduler share: the controller manager's
     * credentials, and the health endpoint on {@code 127.0.0.1:port} with the run's serving certificate.
     */
    List<String> componentFlags(int port) {
        return List.of(
                "--kubeconfig=" + controllerManagerKubeconfig,
                "--authentication-kubeconfig=" + controllerManagerKubeconfig,
                "--authorization-kubeconfig=" + controllerManagerKubeconfig,
                "--bind-address=127.0.0.1",
                "--secure-port=" + port,
                "--tls-cert-file=" + servingCert,
                "--tls-private-key-file=" + servingKey);
    }
}
