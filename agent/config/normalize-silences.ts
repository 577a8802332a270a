// silences: matchers and an expiry. An already expired silence is valid (it simply never applies),
// so a config does not turn invalid by itself overnight.
import type { CheckContext } from './check-context'
import { ConfigErrorCodes } from './errors'
import { toFieldMatches } from './field-match'
import type { SilenceConfig } from './types'
import { listItems } from './written-list'
import type { SilenceInput } from './written-types'

export function normalizeSilences(written: SilenceInput[] | undefined, ctx: CheckContext): SilenceConfig[] {
  const out: SilenceConfig[] = []
  for (const { value: silence, path } of listItems(written, ['silences'])) {
    const startsAt = silence.starts_at === undefined ? undefined : Date.parse(silence.starts_at)
    const endsAt = silence.ends_at === undefined ? Number.NaN : Date.parse(silence.ends_at)
    if (startsAt !== undefined && !Number.isNaN(endsAt) && endsAt <= startsAt) {
      ctx.report(ConfigErrorCodes.VALUE, [...path, 'ends_at'], 'must be after starts_at')
    }
    out.push({ matchers: toFieldMatches(silence.matchers), startsAt, endsAt, comment: silence.comment })
  }
  return out
}
