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
The Service that exposes the metrics port. A Service name is a DNS label (63 characters at
most), so the fullname is cut to 55 before the suffix.
*/}}
{{- define "sample-operator.metricsServiceName" -}}
{{- include "sample-operator.fullname" . | trunc 55 | trimSuffix "-" }}-metrics
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
"true" when the replicas must elect a leader: when asked for, and always with more than one
replica (two replicas reconciling at once would fight over every object). Compare the result with
eq ... "true": include returns a string.
*/}}
{{- define "sample-operator.leaderElection" -}}
{{- if or .Values.leaderElection.enabled (gt (int .Values.replicaCount) 1) }}true{{ else }}false{{ end }}
{{- end }}

{{/*
The namespaces the operator watches, without duplicates; empty for all namespaces.
*/}}
{{- define "sample-operator.watchNamespaces" -}}
{{- .Values.watchNamespaces | uniq | join "," }}
{{- end }}

{{/*
The operator's RBAC rules for the namespaces it reconciles in: the ClusterRole's rules when it
watches all namespaces, each watched namespace's Role's rules otherwise. Written once here so the
two can never drift apart. No delete (owned objects go with their site through the garbage
collector), no wildcards, no secrets.

- staticsites get/list/watch: the StaticSite informer and lister; patch: adding and removing the
  finalizer.
- staticsites/status get/patch/update: the status the reconciler writes (merge patch).
- staticsites/finalizers update: the owner references the operator sets with
  blockOwnerDeletion=true on each site's ConfigMap, Deployment and Service (the API server's
  OwnerReferencesPermissionEnforcement admission asks for it).
- configmaps, services (core) and deployments (apps) get/list/watch: the informers of the owned
  objects; create/patch: server-side apply (a PATCH that creates the object when it is missing).
- events (events.k8s.io) create/patch: the event recorder creates an Event and patches its series
  when the same Event repeats.
*/}}
{{- define "sample-operator.rules" -}}
- apiGroups:
    - sample.operatorstarter.dev
  resources:
    - staticsites
  verbs:
    - get
    - list
    - watch
    - patch
- apiGroups:
    - sample.operatorstarter.dev
  resources:
    - staticsites/status
  verbs:
    - get
    - patch
    - update
- apiGroups:
    - sample.operatorstarter.dev
  resources:
    - staticsites/finalizers
  verbs:
    - update
- apiGroups:
    - ""
  resources:
    - configmaps
    - services
  verbs:
    - get
    - list
    - watch
    - create
    - patch
- apiGroups:
    - apps
  resources:
    - deployments
  verbs:
    - get
    - list
    - watch
    - create
    - patch
- apiGroups:
    - events.k8s.io
  resources:
    - events
  verbs:
    - create
    - patch
{{- end }}
