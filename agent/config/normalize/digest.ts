// digest: the kinds and incidents of each period, sent on a wall-clock schedule. The shape checked
// each key alone (a duration, a time of day, a known time zone); here what takes more: `every` must
// make slots that repeat alike every day (hours that divide a day, or whole days, 1h to 7d: the kind
// table keeps 7 days of hours), and each channel named must exist and carry text (a voice broadcast
// plays recorded audio: it cannot read a digest).
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { DEFAULT_DIGEST_AT, DEFAULT_DIGEST_EVERY, DEFAULT_DIGEST_ZONE } from '../shape/digest-shape'
import { parseDuration } from '../values/duration'
import { parseClock } from '../values/time-values'
import type { ChannelType, DigestConfig } from '../types'
import type { DigestInput } from '../shape/written-types'
import { resolveLocated } from './references'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const MAX_EVERY_MS = 7 * DAY_MS

/** What is wrong with `every`, or undefined. */
export function digestEveryProblem(ms: number): string | undefined {
  if (ms < HOUR_MS || ms > MAX_EVERY_MS) return 'must be between 1h and 7d'
  if (ms < DAY_MS ? DAY_MS % ms !== 0 || ms % 60_000 !== 0 : ms % DAY_MS !== 0)
    return 'must divide a day (1h, 2h, 3h, 4h, 6h, 8h, 12h) or be whole days (1d to 7d)'
  return undefined
}

/** `channels`: the type of each channel declared with a known type. */
export function normalizeDigest(
  written: DigestInput | undefined,
  channels: ReadonlyMap<string, ChannelType>,
  ctx: CheckContext,
): DigestConfig | undefined {
  if (written === undefined) return undefined
  const everyWritten = written.every ?? DEFAULT_DIGEST_EVERY
  let everyMs = parseDuration(everyWritten) ?? (parseDuration(DEFAULT_DIGEST_EVERY) as number)
  const problem = digestEveryProblem(everyMs)
  if (problem !== undefined) {
    const at = ['digest', 'every']
    ctx.report(ConfigErrorCodes.VALUE, at, `${problem}, got ${ctx.show(at, everyWritten)}`)
    everyMs = DAY_MS
  }
  const notify: string[] = []
  for (const { value: name, path } of resolveLocated(
    written.notify,
    ['digest', 'notify'],
    'channel',
    [...channels.keys()],
    ctx,
  )) {
    if (channels.get(name) === 'voice')
      ctx.report(ConfigErrorCodes.VALUE, path, `"${name}" is a voice channel, which cannot read a digest out`)
    else notify.push(name)
  }
  // A time of day or a zone the shape refused is reported already: the default stands in.
  return {
    everyMs,
    at:
      parseClock(written.at ?? DEFAULT_DIGEST_AT) ??
      (parseClock(DEFAULT_DIGEST_AT) as { hour: number; minute: number }),
    timeZone: written.time_zone ?? DEFAULT_DIGEST_ZONE,
    notify,
  }
}
