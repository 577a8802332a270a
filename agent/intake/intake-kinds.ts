// Which code runs each intake type, loaded only by a config that has one: an HTTP handler the
// shared listeners route to, or a stream intake that listens itself (syslog). OTLP joins as an HTTP
// handler: its line goes here when agent/intake/otlp/ lands.
import type { IntakeType } from '../config/types'
import type { HttpIntakeFactory, StreamIntakeFactory } from './types'

export type IntakeKind = { kind: 'http'; create: HttpIntakeFactory } | { kind: 'stream'; start: StreamIntakeFactory }

export async function intakeKindOf(type: IntakeType): Promise<IntakeKind | undefined> {
  switch (type) {
    case 'http':
      return { kind: 'http', create: (await import('./http-intake.js')).createHttpIntakeHandler }
    case 'alertmanager':
    case 'grafana':
      return { kind: 'http', create: (await import('./alertmanager/index.js')).createAlertmanagerHandler }
    case 'syslog':
      return { kind: 'stream', start: (await import('./syslog/index.js')).createSyslogIntake }
    case 'otlp':
      return { kind: 'http', create: (await import('./otlp/index.js')).createOtlpIntake }
    default:
      return undefined
  }
}
