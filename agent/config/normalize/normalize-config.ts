// Stage 3 and 4 of loading: written -> normalized, and the checks across sections. Runs even when
// the shape check found problems, so reference problems are reported in the same pass; the result
// is only handed out when there are none.
import { isAbsolute, join } from 'node:path'
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { normalizeAcknowledge } from './acknowledge'
import { normalizeChannels } from './channels'
import { normalizeCluster } from './cluster'
import { normalizeConsole } from './console'
import { normalizeDigest } from './digest'
import { normalizeKinds } from './kinds'
import { normalizeInhibit } from './inhibit'
import { createPresence, crmWritten, normalizeMessaging } from './messaging'
import { createPeopleDirectory, normalizePeople } from './people'
import { normalizeRules } from './rules'
import { normalizeSchedules } from './schedules'
import { normalizeSilences } from './silences'
import { normalizeSources } from './sources'
import { checkRedactPath, redactPathOf } from '../values/value-checks'
import { createSecret, type Secret } from '../values/secret'
import type { AgentConfig, ChannelType, ConsoleConfig, MessagingConfig } from '../types'
import { parseListen } from '../values/value-checks'
import type { AgentConfigInput } from '../shape/written-types'

export const DEFAULT_STATE_DIR = '.logx-agent'

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Names declared in the file, valid or not, so a broken channel is not also reported as unknown. */
function declaredNames(raw: unknown): { sources: string[]; channels: string[] } {
  const doc = isMapping(raw) ? raw : {}
  const sources = Array.isArray(doc.sources)
    ? doc.sources.flatMap((s: unknown) => (isMapping(s) && typeof s.name === 'string' ? [s.name] : []))
    : []
  const channels = isMapping(doc.channels) ? Object.keys(doc.channels) : []
  return { sources, channels }
}

function secretsOf(messaging: MessagingConfig, console: ConsoleConfig): Secret[] {
  // The lead webhook URL is unique to the account: whoever has it can create leads.
  const lead =
    messaging.mode === 'remote' && messaging.crm !== undefined ? createSecret(messaging.crm.leadWebhook) : undefined
  const all =
    messaging.mode === 'sandbox'
      ? [messaging.apiKey, messaging.activityToken]
      : [messaging.apiKey, messaging.crm?.activityToken, lead]
  return [...all, console.token].filter((s): s is Secret => s !== undefined && s.reveal() !== '')
}

/** The type of each channel whose type is known, for the addresses its people need. */
function channelTypesOf(written: Partial<AgentConfigInput>): Map<string, ChannelType> {
  return new Map(
    Object.entries(written.channels ?? {}).flatMap(([name, c]) =>
      c?.type === undefined ? [] : [[name, c.type] as const],
    ),
  )
}

export function normalizeAgentConfig(
  written: AgentConfigInput | undefined,
  raw: unknown,
  file: string,
  ctx: CheckContext,
): AgentConfig {
  const w: Partial<AgentConfigInput> = written ?? {}
  const declared = declaredNames(raw)
  const rawMessaging = isMapping(raw) ? raw.messaging : undefined
  const messaging = normalizeMessaging(w.messaging, rawMessaging, ctx)
  const people = normalizePeople(w.people, ctx)
  const directory = createPeopleDirectory(people, isMapping(raw) ? raw.people : undefined, channelTypesOf(w), ctx)
  const { schedules, directory: scheduleDirectory } = normalizeSchedules(
    w.schedules,
    isMapping(raw) ? raw.schedules : undefined,
    directory,
    ctx,
  )
  const channels = normalizeChannels(w.channels, { people: directory, schedules: scheduleDirectory, ctx })
  const rules = normalizeRules(
    w.rules,
    { ...declared, checkChannels: true, people: directory, schedules: scheduleDirectory },
    ctx,
  )
  if (messaging.mode === 'remote' && !crmWritten(createPresence(rawMessaging))) {
    rules.forEach((rule, i) => {
      if (rule.incident) {
        ctx.report(
          ConfigErrorCodes.CONFLICT,
          ['rules', i, 'incident'],
          'needs messaging.lead_webhook, activity_webhook and activity_token (or the embedded sandbox)',
        )
      }
    })
  }
  const stateDir = w.state_dir ?? DEFAULT_STATE_DIR
  const listen = w.metrics?.listen === undefined ? undefined : parseListen(w.metrics.listen)
  const consoleConfig = normalizeConsole(
    w.console,
    isMapping(raw) ? raw.console : undefined,
    listen,
    isMapping(raw) && Object.hasOwn(raw, 'metrics'),
    ctx,
  )
  const cluster = normalizeCluster(w.cluster, isMapping(raw) ? raw.cluster : undefined, ctx)
  const digest = normalizeDigest(w.digest, channelTypesOf(w), ctx)
  const sources = normalizeSources(w.sources, ctx)
  return {
    file,
    messaging,
    stateDir: isAbsolute(stateDir) ? stateDir : join(ctx.cwd, stateDir),
    sources,
    people,
    schedules,
    channels,
    rules,
    silences: normalizeSilences(w.silences, ctx),
    inhibit: normalizeInhibit(w.inhibit),
    // A path the shape refused is reported already; the rest are parsed.
    redact: (w.redact ?? [])
      .filter((path) => typeof path === 'string' && checkRedactPath(path) === undefined)
      .map(redactPathOf),
    metrics: listen === undefined ? undefined : { listen },
    acknowledge: normalizeAcknowledge(w.acknowledge, messaging.mode === 'sandbox', ctx),
    console: consoleConfig,
    ...(cluster === undefined ? {} : { cluster }),
    ...(digest === undefined ? {} : { digest }),
    kinds: normalizeKinds(w.kinds),
    // The Redis password and TLS key are scrubbed like every other secret.
    secrets: [
      ...secretsOf(messaging, consoleConfig),
      ...[cluster?.redis.password, cluster?.redis.tls?.key].filter((s): s is Secret => s !== undefined),
      // An intake's bearer token and TLS key too.
      ...sources.flatMap((s) => [s.intake?.token, s.intake?.tls?.key].filter((k): k is Secret => k !== undefined)),
    ],
  }
}
