// The stream adapter every alert target shares: a logx stream's bytes -> the one pre-filter ->
// THE alert path of agent/delivery (engine, journaled outbox batch, channel sender, incident
// recorder) -> and, at the end, a bounded drain. A channel folder brings only its options.
//
// Nothing here may throw into the logging path: a failing API, a bad line or a full disk is
// reported on stderr (at most 20 lines per target) and counted, and logging goes on.
import { Writable } from 'node:stream'
import type { ChannelConfig } from '../../config/types'
import { toAlertLine } from '../../events/alert-line'
import { createAlertPath, type AlertPath } from '../../acknowledge/with-actions'
import { createCandidateFilter } from '../../prefilter/candidate-filter'
import type { DeliveryLog } from '../../delivery/types'
import { DeliveryError, DeliveryErrorCodes } from '../../delivery/errors'
import { OutboxError, OutboxErrorCodes } from '../../outbox'
import { createStreamLines } from '../../prefilter/stream-lines'
import type { LineBatch } from '../../tail'
import type { ApiOptions, CommonOptions, CrmOptions } from './common-options'
import { asOptionError } from './common-options'
import { optionError, TransportError, TransportErrorCodes } from './errors'

export interface AlertTargetSetup {
  target: string
  common: CommonOptions
  /** The messaging API; undefined for logx-incident, which sends nothing. */
  api: ApiOptions | undefined
  crm: CrmOptions | undefined
  /** The channel this target sends on; undefined for logx-incident, which records incident notes. */
  channel: ChannelConfig | undefined
  now?: () => number
}

/** The target's side of the path's reports: warnings and errors on stderr, never a flood. */
function reporter(target: string): { log: DeliveryLog; report(message: string): void } {
  let reported = 0
  const report = (message: string): void => {
    if (reported++ < 20) process.stderr.write(`${target}: ${message}\n`)
  }
  return {
    report,
    log: { info: () => {}, warn: (_fields, message) => report(message), error: (_fields, message) => report(message) },
  }
}

/** The strings a target must keep out of every message. */
export function secretsOf(values: (string | undefined)[]): string[] {
  const out: string[] = []
  for (const value of values) {
    if (value === undefined) continue
    out.push(value)
    if (URL.canParse(value)) {
      const { pathname, search } = new URL(value)
      if (pathname.length > 1) out.push(pathname)
      if (search.length > 1) out.push(search)
    }
  }
  return out
}

function openPath(setup: AlertTargetSetup, log: DeliveryLog, now: number): AlertPath {
  const { target, common, api, crm, channel } = setup
  const outboxPath = common.outboxPath
  try {
    return createAlertPath({
      setup: {
        // With a CRM, every incident of this target is recorded.
        rules: crm === undefined ? common.rules : common.rules.map((rule) => ({ ...rule, incident: true })),
        channels: channel === undefined ? [] : [channel],
        silences: common.silences,
        redact: common.redact,
        secrets: secretsOf([api?.apiKey, crm?.activityToken, crm?.leadWebhook]),
        incidentNotes: channel === undefined ? { maxPerHour: common.maxPerHour } : undefined,
        maxIncidents: common.maxIncidents,
      },
      // Beside a journaled outbox, the incident state too: after a crash the app's worker keeps
      // the daemon's promises (no re-page of what paged, pending incidents still fire).
      statePath: outboxPath === undefined ? undefined : `${outboxPath}.incidents.json`,
      outbox: { path: outboxPath, owner: target, maxAttempts: common.maxAttempts, backoff: common.backoff },
      api: api === undefined ? undefined : { baseUrl: api.messagingUrl, apiKey: api.apiKey },
      crm,
      timeoutMs: common.timeoutMs,
      service: common.service,
      log,
      now,
    })
  } catch (err) {
    if (!(err instanceof DeliveryError)) asOptionError(target, err)
    const cause = err.cause
    if (cause instanceof OutboxError && cause.code === OutboxErrorCodes.IN_USE) {
      throw optionError(
        target,
        'outbox',
        `${outboxPath} is already the outbox of ${cause.holder} in this worker: give each target its own file`,
      )
    }
    const option = err.code === DeliveryErrorCodes.LEADS ? 'stateDir' : 'outbox'
    const where = option === 'stateDir' ? crm?.stateDir : outboxPath
    throw new TransportError(
      TransportErrorCodes.STATE,
      target,
      `options.${option}: cannot use ${where}: ${((err.cause as Error | undefined) ?? err).message}`,
      {
        option,
        cause: err,
      },
    )
  }
}

/** Options normalized for a target: the channel it sends on (none: it records incidents only). */
export interface NormalizedTargetOptions {
  common: CommonOptions
  api?: ApiOptions | undefined
  crm: CrmOptions | undefined
  channel?: ChannelConfig | undefined
}

/** A target module's default export: options in, the stream logx writes to out. */
export function alertTarget(
  target: string,
  normalize: (raw: unknown) => NormalizedTargetOptions,
): (raw: unknown) => Promise<Writable> {
  return async (raw) => {
    const { common, api, crm, channel } = normalize(raw)
    return startAlertTarget({ target, common, api, crm, channel })
  }
}

export function startAlertTarget(setup: AlertTargetSetup): Writable {
  const { common } = setup
  const now = setup.now ?? Date.now
  const { log, report } = reporter(setup.target)
  const path = openPath(setup, log, now())
  const { pipeline, dispatcher } = path

  function guarded(fn: () => void): void {
    try {
      fn()
    } catch (err) {
      report(`internal error: ${(err as Error).message}`)
    }
  }

  const lines = createStreamLines()
  // A target's rules never change while it runs: one filter at their lowest level.
  const filter = createCandidateFilter(pipeline.lowestLevel())
  const onBatch = (batch: LineBatch): void => {
    // Lines no rule can take (most of them) are dropped on the bytes, never decoded or parsed.
    const at = now()
    for (const candidate of filter(batch).candidates) {
      const { line } = toAlertLine(candidate.data.toString('utf8'), 'auto', common.source)
      guarded(() => pipeline.ingest(line, at))
    }
  }

  const ticker = setInterval(() => guarded(() => pipeline.tick(now())), common.tickMs)
  // The worker is kept alive by thread-stream; the tick must not keep anything else alive.
  ticker.unref()

  let closed = false
  async function shutdown(): Promise<void> {
    if (closed) return
    closed = true
    clearInterval(ticker)
    guarded(() => lines.end(onBatch))
    guarded(() => pipeline.flush(now()))
    const result = await dispatcher.drain(common.drainTimeoutMs)
    if (!result.drained) {
      report(
        `${result.pending} notification(s) not delivered within ${common.drainTimeoutMs} ms` +
          (common.outboxPath !== undefined ? '; kept in the outbox for the next start' : ''),
      )
    }
    await path.close()
  }

  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      guarded(() => lines.push(chunk, onBatch))
      callback()
    },
    final(callback) {
      shutdown().then(
        () => callback(),
        (err: unknown) => {
          report(`shutdown: ${(err as Error).message}`)
          callback()
        },
      )
    },
    destroy(err, callback) {
      clearInterval(ticker)
      if (closed) {
        callback(err)
        return
      }
      // Destroyed without end(): still try to deliver what is queued, within the bound.
      shutdown().then(
        () => callback(err),
        () => callback(err),
      )
    },
  })
}
