// Webhook bodies as Alertmanager (webhook_config, version 4) and Grafana's webhook contact point send
// them, for the intake's tests and the benchmark; `alert()` makes one alert with its usual fields.

export type Body = Record<string, unknown>

const ZERO_TIME = '0001-01-01T00:00:00Z'

export function alert(labels: Record<string, string>, extra: Body = {}): Body {
  return {
    status: 'firing',
    labels,
    annotations: {},
    startsAt: '2026-12-02T03:00:00.000Z',
    endsAt: ZERO_TIME,
    generatorURL: 'http://prometheus.example:9090/graph?g0.expr=up+%3D%3D+0',
    fingerprint: 'a1b2c3d4e5f60718',
    ...extra,
  }
}

export function alertmanagerBody(alerts: Body[], extra: Body = {}): Body {
  const firing = alerts.some((a) => a.status === 'firing')
  return {
    version: '4',
    groupKey: '{}:{alertname="InstanceDown"}',
    truncatedAlerts: 0,
    status: firing ? 'firing' : 'resolved',
    receiver: 'logx',
    groupLabels: { alertname: 'InstanceDown' },
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    alerts,
    ...extra,
  }
}

/** Grafana's: version "1", its group fields, and per alert its URLs and values. */
export function grafanaBody(alerts: Body[]): Body {
  return {
    ...alertmanagerBody(
      alerts.map((a) => ({
        ...a,
        silenceURL: 'https://grafana.example/alerting/silence/new',
        dashboardURL: 'https://grafana.example/d/abc',
        panelURL: 'https://grafana.example/d/abc?viewPanel=2',
        values: { B: 44.2, C: 1 },
      })),
    ),
    version: '1',
    orgId: 1,
    title: '[FIRING:1] High memory usage',
    state: 'alerting',
    message: '**Firing**\n\nValue: B=44.2',
  }
}
