// The one place a regular expression a user wrote becomes a RegExp: rules' `match` and `message`,
// silences' and inhibitions' matchers (YAML, the console's API, `logx-agent silence`, the file of
// run-time silences), multi-line `start` and `continue`. These run on log content, which anyone who
// can write a log line controls, so a pattern that backtracks catastrophically is an event loop
// stopped by one line (`^(a+)+$` and 31 bytes took 15.7 s). Rules, in order:
// 1. flags: only i, m, s and u, each once (g and y make test() stateful, d and v change the syntax);
// 2. the pattern compiles;
// 3. a pattern safe-regex2 finds unsafe is refused: a repeated group that itself holds a repetition
//    (`(a+)+`, `(\w+\s?)*`), or more than 25 repetitions in all. That check is structural and misses
//    overlapping alternatives (`(a|a)+`), which the agent's own process bounds at run time instead
//    (bin/logx-agent.js turns on V8's linear-time fallback); inside an app's transport targets the
//    process flags are the app's, and this refusal is the only guard.
// Lookbehind is read as a plain group for rule 3 (safe-regex2's parser does not know it; the
// nesting of repetitions is the same).

import safeRegex from 'safe-regex2'

export const ALLOWED_FLAGS = 'imsu'

export type RegexParse = { ok: true; regex: RegExp } | { ok: false; message: string }

export const UNSAFE_PATTERN_HINT =
  'can take exponential time on some lines (a repeated group holding a repetition, like (a+)+, or more than ' +
  '25 repetitions): write it without the nesting, e.g. (a+)+ as a+'

// An unescaped `(?<=` or `(?<!`: a lookbehind, as opposed to a named group `(?<name>`.
const LOOKBEHIND = /(?<=(?:^|[^\\])(?:\\\\)*)\(\?<[=!]/g

/** Compiles a pattern from config, a silence or an option, or says why it is refused (rules 1-3). */
export function compileUserPattern(source: string, flags = ''): RegexParse {
  for (const flag of flags) {
    if (!ALLOWED_FLAGS.includes(flag))
      return { ok: false, message: `unsupported regex flag "${flag}" (allowed: ${ALLOWED_FLAGS.split('').join(', ')})` }
  }
  if (new Set(flags).size !== flags.length) return { ok: false, message: `repeated regex flag in "${flags}"` }
  let regex: RegExp
  try {
    regex = new RegExp(source, flags)
  } catch (err) {
    return {
      ok: false,
      message: `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    }
  }
  if (!isSafePattern(source)) return { ok: false, message: `regular expression /${source}/ ${UNSAFE_PATTERN_HINT}` }
  return { ok: true, regex }
}

/** Rule 3 alone, for a pattern known to compile. */
export function isSafePattern(source: string): boolean {
  return safeRegex(source.replace(LOOKBEHIND, '(?:'))
}
