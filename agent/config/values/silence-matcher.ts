// A silence matcher's value, wherever a silence is made: the config's `silences`, a transport
// target's `silences` option, `logx-agent silence --match` and the console's POST /api/silences
// (through the run-time silences' check). The value is compared with log text or is a pattern, so
// it is printed back by `silence list`, the console and the timeline: a control character in it
// could only be a terminal escape or a forged line, and is refused. Pure. Rules:
// 1. A value holding a C0 control (tab and newline included), DEL or a C1 control is refused,
//    naming the first one as an escape (`\x1b`), and where it is (1-based character).
// 2. Any other value is checked as every field matcher is (a `/pattern/flags` value must compile).
import { checkMatchValue } from './value-checks'

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** Rule 1: the problem of a value holding a control character, or undefined. */
export function controlCharacterProblem(value: string): string | undefined {
  const found = CONTROL.exec(value)
  if (found === null) return undefined
  const char = found[0]
  const shown = NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`
  return (
    `must not hold control characters (${shown} at character ${found.index + 1}): ` +
    'a silence matches printable text; to match one, write a /pattern/ with an escape like \\x1b'
  )
}

/** Rules 1 and 2: what is wrong with a silence matcher's value, or undefined. */
export function checkSilenceMatchValue(value: string): string | undefined {
  return controlCharacterProblem(value) ?? checkMatchValue(value)
}
