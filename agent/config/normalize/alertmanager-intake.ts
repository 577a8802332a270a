// An alertmanager or grafana source's own keys: severity_label, severity_levels, send_resolved
// (agent/intake/alertmanager/ reads them). On another type of source they are problems at the key.
import { levelFromName } from '../../../alerts'
import { ConfigErrorCodes } from '../errors'
import type { CheckContext } from '../load/check-context'
import type { Segment } from '../load/yaml-source'
import type { SourceInput } from '../shape/written-types'
import type { AlertmanagerIntakeConfig } from '../types'

const KEYS = ['severity_label', 'severity_levels', 'send_resolved'] as const

/** The keys of an alertmanager or grafana source; undefined (and its keys reported) for another type. */
export function normalizeAlertmanagerKeys(
  source: SourceInput,
  path: readonly Segment[],
  ctx: CheckContext,
): AlertmanagerIntakeConfig | undefined {
  if (source.type !== 'alertmanager' && source.type !== 'grafana') {
    for (const key of KEYS) {
      if (source[key] !== undefined)
        ctx.report(ConfigErrorCodes.CONFLICT, [...path, key], `"${key}" is for alertmanager and grafana sources`, 'key')
    }
    return undefined
  }
  const severityLevels = Object.fromEntries(
    Object.entries(source.severity_levels ?? {}).flatMap(([value, level]) => {
      // The shape checked each level already (a name or a number): a failed one is undefined here.
      const number = typeof level === 'number' ? level : level === undefined ? undefined : levelFromName(level)
      return number === undefined ? [] : [[value.trim().toLowerCase(), number] as const]
    }),
  )
  return {
    severityLabel: source.severity_label ?? 'severity',
    severityLevels,
    sendResolved: source.send_resolved ?? true,
  }
}
