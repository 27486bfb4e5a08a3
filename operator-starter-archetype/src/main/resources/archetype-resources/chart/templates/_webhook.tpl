{{/*
The name of the ValidatingWebhookConfiguration, and of the ClusterRole that lets the operator write
its caBundle: these are cluster-scoped, so the name carries the release namespace as well as the
release (helm lint renders without a namespace).
*/}}
{{- define "operator.webhookConfigurationName" -}}
{{- list .Release.Name .Release.Namespace | compact | join "-" -}}
{{- end }}
