// logx-tail-filter options: written (what users pass) -> normalized.
import { normalizeRules, type Rule, type RuleInput } from '../../../alerts'
import { asObject, optionalString, rejectUnknown } from '../shared/check'
import { asOptionError } from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-tail-filter'

export interface TailFilterOptionsInput {
  /** Rules deciding what passes; default: error and fatal lines. */
  rules?: RuleInput[]
  /** Source name matched by rules' `source`. */
  source?: string
  /** Add `"logx_rule": "<name>"` to each passed line; default true. */
  annotate?: boolean
}

export interface TailFilterOptions {
  rules: Rule[]
  source: string | undefined
  annotate: boolean
}

const KEYS = new Set(['rules', 'source', 'annotate'])

export function normalizeTailFilterOptions(raw: unknown): TailFilterOptions {
  const written = asObject(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  let rules: Rule[] = []
  try {
    rules = normalizeRules(written.rules)
  } catch (err) {
    asOptionError(TARGET, err)
  }
  if (written.annotate !== undefined && typeof written.annotate !== 'boolean') throw optionError(TARGET, 'annotate', 'expected true or false')
  return { rules, source: optionalString(TARGET, written, 'source'), annotate: written.annotate !== false }
}
