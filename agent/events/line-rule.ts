// A source's multi-line rule: a preset's byte checks (presets.ts), or a pattern tested on the
// decoded line (`start`: a matching line starts an event, any other continues; `continue`: the
// other way round).
import type { MultilineConfig } from '../config/types'
import { CONTINUES, type LineRule } from './line-step'
import { presetRule } from './presets'

export function compileLineRule(config: MultilineConfig): LineRule {
  const { match } = config
  if (match.kind === 'preset') return presetRule(match.preset)
  const { pattern } = match
  const startPattern = match.kind === 'start'
  const stepText = (_mode: number, text: string): number => (pattern.test(text) !== startPattern ? CONTINUES : 0)
  return {
    step: (mode, buf, start, end) => stepText(mode, buf.toString('utf8', start, end)),
    stepText,
  }
}
