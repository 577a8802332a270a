// silences: matchers and an expiry. An already expired silence is valid (it simply never applies),
// so a config does not turn invalid by itself overnight. The one silence normalizer, for the YAML
// config and a transport target's `silences` option.
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { toFieldMatches } from '../values/field-match'
import type { SilenceConfig } from '../types'
import { listItems } from '../shape/written-list'
import type { SilenceInput } from '../shape/written-types'

/** Epoch ms of an ISO date or of epoch ms as written. */
const epochMs = (value: string | number): number => (typeof value === 'number' ? value : Date.parse(value))

export function normalizeSilences(written: SilenceInput[] | undefined, ctx: CheckContext): SilenceConfig[] {
  const out: SilenceConfig[] = []
  for (const { value: silence, path } of listItems(written, ['silences'])) {
    const startsAt = silence.starts_at === undefined ? undefined : epochMs(silence.starts_at)
    const endsAt = silence.ends_at === undefined ? Number.NaN : epochMs(silence.ends_at)
    if (startsAt !== undefined && !Number.isNaN(endsAt) && endsAt <= startsAt) {
      ctx.report(ConfigErrorCodes.VALUE, [...path, 'ends_at'], 'must be after starts_at')
    }
    const silenceConfig: SilenceConfig = {
      matchers: toFieldMatches(silence.matchers),
      startsAt,
      endsAt,
      comment: silence.comment,
    }
    if (silence.id !== undefined) silenceConfig.id = silence.id
    out.push(silenceConfig)
  }
  return out
}
