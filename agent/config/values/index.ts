// Public surface of values/: the grammars of single values (durations, regex literals, secrets,
// wall-clock times, field matchers) and their checks. Files of agent/config import the module they
// need, never this index.
export { DURATION_HINT, parseDuration } from './duration'
export { isRegexLiteral, parseRegex } from './regex-literal'
export { createSecret } from './secret'
export type { Secret } from './secret'
export { toFieldMatches } from './field-match'
export {
  checkDotPath,
  checkHint,
  checkMatchValue,
  checkOncallRef,
  checkRedactPath,
  checkTimeZone,
  checkUrl,
  fillHint,
  isLoopbackHost,
  parseListen,
  redactPathOf,
} from './value-checks'
