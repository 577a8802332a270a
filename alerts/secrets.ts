// Known secrets (API keys, tokens) are cut out of a selected line before anything is built from it,
// so no title, field, lead name or note can carry one. Rendering scrubs again as a last defence.
import type { AlertLine } from './line'

export const SECRET_MASK = '[redacted]'

/** Only strings long enough to be credentials: masking "a" would shred every message. */
export function usableSecrets(secrets: readonly string[]): string[] {
  return secrets.filter((s) => s.length >= 4)
}

export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(SECRET_MASK)
  return out
}

export function scrubLine(line: AlertLine, secrets: readonly string[]): AlertLine {
  if (secrets.length === 0) return line
  const json = JSON.stringify(line.record)
  const clean = scrubText(json, secrets.map((s) => JSON.stringify(s).slice(1, -1)))
  if (clean === json && !secrets.some((s) => line.msg.includes(s) || line.raw.includes(s))) return line
  return {
    ...line,
    record: JSON.parse(clean) as Record<string, unknown>,
    msg: scrubText(line.msg, secrets),
    raw: scrubText(line.raw, secrets),
  }
}
