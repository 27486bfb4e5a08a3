{{/*
Named templates shared by the chart's manifests.
*/}}

{{/*
The chart's name: nameOverride, else the chart name; at most 63 characters (a DNS label).
*/}}
{{- define "sample-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of the release's objects: fullnameOverride when set; otherwise the release name,
followed by the chart name unless the release name already contains it. At most 63 characters.
*/}}
{{- define "sample-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The Lease the replicas elect their leader with (a Lease name may be longer than 63 characters).
*/}}
{{/*
The label every member Lease of the ring carries, with the ring's name (ShardLabels.RING_LABEL).
*/}}
{{- define "sample-operator.ringLabel" -}}
sharding.operatorstarter.dev/ring
{{- end }}

{{- define "sample-operator.leaseName" -}}
{{- include "sample-operator.fullname" . }}-leader
{{- end }}

{{/*
The site index ConfigMap in the release namespace, which the finalizer cleans up (a ConfigMap
name may be longer than 63 characters).
*/}}
{{- define "sample-operator.siteIndexName" -}}
{{- include "sample-operator.fullname" . }}-sites
{{- end }}

{{/*
The chart label: name and version, "+" replaced (not allowed in a label value).
*/}}
{{- define "sample-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels on every object of the release.
*/}}
{{- define "sample-operator.labels" -}}
helm.sh/chart: {{ include "sample-operator.chart" . }}
{{ include "sample-operator.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: operator-starter
{{- end }}

{{/*
Labels that select the operator's pods. They go into the Deployment's selector, which cannot be
changed after install, so nothing that may change between releases belongs here.
*/}}
{{- define "sample-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sample-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The service account the pod runs as: the chart's own when it creates one, else the named one
(or "default").
*/}}
{{- define "sample-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sample-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
"true" when the replicas must elect a leader: when asked for, always with more than one replica
(two replicas reconciling at once would fight over every object), and always with sharding (the
elected replica assigns the objects to the shards). Compare the result with eq ... "true": include
returns a string.
*/}}
{{- define "sample-operator.leaderElection" -}}
{{- if or .Values.leaderElection.enabled (gt (int .Values.replicaCount) 1) .Values.sharding.enabled }}true{{ else }}false{{ end }}
{{- end }}

{{/*
The ring the shards form (sharding.enabled): sharding.ringName, else the fullname. It is a DNS
label (63 characters at most): the name part of the label keys shard.sharding.operatorstarter.dev/<ring>
and drain.sharding.operatorstarter.dev/<ring>, and the prefix of every member Lease's name. The
schema checks a given ringName; a fullname that is no DNS label (fullnameOverride) fails here.
*/}}
{{- define "sample-operator.ringName" -}}
{{- $ring := .Values.sharding.ringName | default (include "sample-operator.fullname" . | trunc 63 | trimSuffix "-") }}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" $ring) }}
{{- fail (printf "sharding: the ring name %q (the fullname) is not a DNS label (lower-case letters, digits and '-', at most 63 characters): set sharding.ringName." $ring) }}
{{- end }}
{{- $ring }}
{{- end }}

{{/*
The namespaces the operator watches, comma-separated, without duplicates: watchNamespaces, or the
release namespace when that is empty; empty only with watchAllNamespaces (all namespaces).
*/}}
{{- define "sample-operator.watchNamespaces" -}}
{{- if .Values.watchAllNamespaces }}
{{- if .Values.watchNamespaces }}
{{- fail "watchAllNamespaces and watchNamespaces exclude each other: set one of them" }}
{{- end }}
{{- else if .Values.watchNamespaces }}
{{- .Values.watchNamespaces | uniq | join "," }}
{{- else }}
{{- .Release.Namespace }}
{{- end }}
{{- end }}

{{/*
The Service the API server calls the webhooks through (a DNS label: the fullname is cut to 55
before the suffix).
*/}}
{{- define "sample-operator.webhookServiceName" -}}
{{- include "sample-operator.fullname" . | trunc 55 | trimSuffix "-" }}-webhook
{{- end }}

{{/*
The Service the API server calls the conversion webhook through. It also sends to pods that are
not ready yet: the operator reads StaticSites in the stored version, and its caches (so its
readiness) can only fill when objects stored in another version are converted, which needs a pod
to answer before it is ready.
*/}}
{{- define "sample-operator.conversionServiceName" -}}
{{- include "sample-operator.fullname" . | trunc 52 | trimSuffix "-" }}-conversion
{{- end }}

{{/*
The host names the webhook certificate is for: both Services, short and fully qualified.
*/}}
{{- define "sample-operator.webhookDnsNames" -}}
{{- $names := list }}
{{- range list (include "sample-operator.webhookServiceName" .) (include "sample-operator.conversionServiceName" .) }}
{{- $names = append $names (printf "%s.%s.svc" . $.Release.Namespace) }}
{{- $names = append $names (printf "%s.%s.svc.cluster.local" . $.Release.Namespace) }}
{{- end }}
{{- toYaml $names }}
{{- end }}

{{/*
The name of the ValidatingWebhookConfiguration and of the MutatingWebhookConfiguration (two kinds,
so one name serves both; cluster-scoped, so it carries the release through the fullname).
*/}}
{{- define "sample-operator.webhookConfigurationName" -}}
{{- include "sample-operator.fullname" . }}
{{- end }}

{{/*
The cert-manager Certificate, and the Secret it writes the serving certificate into. cert-manager
labels what it makes with the Certificate's name, and a label value has at most 63 characters, so
the fullname is cut to 55 before the suffix.
*/}}
{{- define "sample-operator.webhookCertificateName" -}}
{{- include "sample-operator.fullname" . | trunc 55 | trimSuffix "-" }}-webhook
{{- end }}
{{- define "sample-operator.webhookSecretName" -}}
{{- include "sample-operator.fullname" . }}-webhook-tls
{{- end }}

{{/*
Where the pod mounts that Secret (certManager mode).
*/}}
{{- define "sample-operator.webhookCertificateDirectory" -}}
/etc/operator/webhook-certificate
{{- end }}

{{/*
The StaticSite CRD as the chart ships it (files/crds, generated from the Java classes), parsed.
*/}}
{{- define "sample-operator.crdFile" -}}
files/crds/staticsites.sample.operatorstarter.dev.yaml
{{- end }}

{{/*
The CRD's name, read from the generated file so it cannot drift from it.
*/}}
{{- define "sample-operator.crdName" -}}
{{- (.Files.Get (include "sample-operator.crdFile" .) | fromYaml).metadata.name }}
{{- end }}

{{/*
The CRD's storage version, read from the generated file: the admission rules name it, and with
matchPolicy Equivalent the API server sends requests made in any other version converted to it.
*/}}
{{- define "sample-operator.crdStorageVersion" -}}
{{- range (.Files.Get (include "sample-operator.crdFile" .) | fromYaml).spec.versions }}
{{- if .storage }}{{ .name }}{{ end }}
{{- end }}
{{- end }}

{{/*
"true" when the chart serves webhooks with a certificate the operator generates and a caBundle it
writes itself (webhooks.certificates.mode generated); compare with eq ... "true".
*/}}
{{- define "sample-operator.webhooksGenerated" -}}
{{- if and .Values.webhooks.enabled (eq .Values.webhooks.certificates.mode "generated") }}true{{ else }}false{{ end }}
{{- end }}

{{/*
"true" when cert-manager issues the certificate and injects its CA (webhooks.certificates.mode
certManager).
*/}}
{{- define "sample-operator.webhooksCertManager" -}}
{{- if and .Values.webhooks.enabled (eq .Values.webhooks.certificates.mode "certManager") }}true{{ else }}false{{ end }}
{{- end }}

{{/*
"true" when the StaticSite CRD converts through the operator's webhook: the conversion Service, the
CA injection into the CRD in mode generated, and with crds.install the CRD's conversion stanza. The
CRD's versions have different schemas, so without it v1alpha1 would lose the files (see crds.yaml).
*/}}
{{- define "sample-operator.conversionWebhook" -}}
{{- if and .Values.webhooks.enabled .Values.webhooks.conversion.enabled }}true{{ else }}false{{ end }}
{{- end }}

{{/*
The annotation by which cert-manager's CA injector sets the caBundle from the Certificate's Secret.
*/}}
{{- define "sample-operator.injectCaFrom" -}}
cert-manager.io/inject-ca-from: {{ printf "%s/%s" .Release.Namespace (include "sample-operator.webhookCertificateName" .) | quote }}
{{- end }}

{{/*
The rules of the admission webhooks: StaticSite CREATE and UPDATE, in the storage version.
*/}}
{{- define "sample-operator.webhookRules" -}}
- apiGroups:
    - {{ (.Files.Get (include "sample-operator.crdFile" .) | fromYaml).spec.group }}
  apiVersions:
    - {{ include "sample-operator.crdStorageVersion" . }}
  resources:
    - {{ (.Files.Get (include "sample-operator.crdFile" .) | fromYaml).spec.names.plural }}
  operations:
    - CREATE
    - UPDATE
  scope: Namespaced
{{- end }}

{{/*
The fields every admission webhook of the chart shares, after its name and path: the Service, the
policy and timeout from the values, and a namespaceSelector limited to the watched namespaces
(none with watchAllNamespaces).
*/}}
{{- define "sample-operator.webhookCommon" -}}
admissionReviewVersions:
  - v1
sideEffects: None
failurePolicy: {{ .Values.webhooks.failurePolicy }}
timeoutSeconds: {{ .Values.webhooks.timeoutSeconds }}
matchPolicy: Equivalent
rules:
  {{- include "sample-operator.webhookRules" . | nindent 2 }}
# The operator's own writes (its finalizer patches) skip the webhooks: they change no spec, and they
# must not depend on the operator's pods being ready to answer.
matchConditions:
  - name: not-the-operator
    expression: "request.userInfo.username != 'system:serviceaccount:{{ .Release.Namespace }}:{{ include "sample-operator.serviceAccountName" . }}'"
{{- with include "sample-operator.watchNamespaces" . }}
namespaceSelector:
  matchExpressions:
    - key: kubernetes.io/metadata.name
      operator: In
      values:
        {{- toYaml (splitList "," .) | nindent 8 }}
{{- end }}
{{- end }}

{{/*
The clientConfig of a webhook at path $path: Service $service in the release namespace, port 443.
Called with (list $ $path $service).
*/}}
{{- define "sample-operator.webhookClientConfig" -}}
{{- $ := index . 0 -}}
service:
  name: {{ index . 2 }}
  namespace: {{ $.Release.Namespace }}
  path: {{ index . 1 | quote }}
  port: 443
{{- end }}
