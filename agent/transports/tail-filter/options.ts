// logx-tail-filter options: written (what users pass) -> normalized. Its `rules` are the YAML
// config's, read by the same normalizer (agent/config), then compiled for matching.
import { compileRules, type Rule } from '../../../alerts'
import { readAlertOptions } from '../../config/normalize/target-options'
import { asObject, optionalString, rejectUnknown } from '../shared/check'
import { asOptionError, readOrThrow, type TargetRuleInput } from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-tail-filter'

export interface TailFilterOptionsInput {
  /** Rules deciding what passes; default: error and fatal lines. */
  rules?: TargetRuleInput[]
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
  // Only `rules` is read (a tail filter has no silences); it notifies nothing, so no channel either.
  const { rules } = readOrThrow(TARGET, readAlertOptions({ rules: written.rules }, []))
  let compiled: Rule[] = []
  try {
    compiled = compileRules(rules)
  } catch (err) {
    asOptionError(TARGET, err)
  }
  if (written.annotate !== undefined && typeof written.annotate !== 'boolean')
    throw optionError(TARGET, 'annotate', 'expected true or false')
  return { rules: compiled, source: optionalString(TARGET, written, 'source'), annotate: written.annotate !== false }
}
