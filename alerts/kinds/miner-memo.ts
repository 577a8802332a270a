// A source's memo of masked forms (miner-message.ts): a line whose message repeats a known one but for its
// numbers gets its form without being masked again, nor its stack read again. Its key is a string made
// by a few native replaces (no per-character JavaScript, so it is cheap even before the JIT warms up, as
// in an agent that mines a few thousand error lines), and it is exact: two events with equal keys have
// the same form, because it folds only what masking makes the same whatever its digits. The rules:
//  1. A message or a stack longer than MAX_MESSAGE is never memoised: where a message is cut depends on
//     its length, and a key that long costs what masking does.
//  2. The message before the token holding its first quote character (`"` or `'`): each run of ASCII
//     digits becomes `0` (one digit) or `00` (more). Masking makes a part of a token holding a digit
//     `<*>` and looks at no digit's value, nor at a run's length but for whether the token starts with
//     one digit or more (`5:\x` is a path, `55:\x` not), which the key keeps. From that token on, the
//     message is kept as it is: how far a quoted string reaches (MAX_QUOTED) depends on the length of
//     what it spans, and the part of a token before a quoted string is copied as it is.
//  3. The error type, whether a leading `<*>` is dropped (plain-text lines), and the stack's language
//     are part of the key, each after its length where it could hold anything. An event with neither
//     type nor stack (a plain-text line: most error lines) is looked up by its folded message alone, in
//     the map of its dropLeading: no key is put together for it.
//  4. A stack is kept as it is but for the `:line` or `:line:column` (a `)` after them or not) that end
//     a line of a stack neither Python's nor Go's: each becomes `:0`. Of such a stack only the frame lines
//     (`at ` after blanks) count (miner-stack.ts), and their fingerprint cuts those numbers off as they
//     end the line its regular expression reads; the other lines do not count at all, so the lines before
//     the first frame line are left out but for their number (the fingerprint reads the first MAX_LINES).
//  5. At most `max` entries; when full, the memo starts again empty.
import { traceKind } from '../trace'
import { MAX_MESSAGE } from './miner-mask'

/** Entries per source. */
export const MEMO_MAX = 4096

const LONG_RUNS = /\d\d+/g
const SHORT_RUNS = /[1-9]/g
const LINE_END_NUMBERS = /:\d+(?=(?::\d+)?\)?(?:\n|$))/g
/** The start of a stack's first frame line: `at ` after blanks that are not a line break, as trim() reads it. */
const FIRST_FRAME = /(?:^|\n)[^\S\n]*at /

/** Rule 2 on a message. */
export function messageKey(message: string): string {
  const double = message.indexOf('"')
  const single = message.indexOf("'")
  const quote = double === -1 ? single : single === -1 ? double : Math.min(double, single)
  if (quote === -1) return foldRuns(message)
  // The quote's token starts after a blank; a blank other than a space before it only makes the key stricter.
  const token = message.lastIndexOf(' ', quote) + 1
  return token === 0 ? message : foldRuns(message.slice(0, token)) + message.slice(token)
}

function foldRuns(text: string): string {
  return text.replace(LONG_RUNS, '00').replace(SHORT_RUNS, '0')
}

/** Rule 4 on a stack (`''`: none). */
export function stackKey(stack: string): string {
  if (stack === '') return '-'
  const language = traceKind(stack)
  if (language !== 'other') return `${language[0] as string}${stack}`
  let from = stack.search(FIRST_FRAME)
  if (from === -1) return 'o'
  if (stack.charCodeAt(from) === 10 /* \n */) from++
  let before = 0
  for (let at = stack.indexOf('\n'); at !== -1 && at < from; at = stack.indexOf('\n', at + 1)) before++
  return `o${before}:${stack.slice(from).replace(LINE_END_NUMBERS, ':0')}`
}

export class FormMemo {
  /** Rule 3: events with neither type nor stack, by folded message; [dropLeading false, true]. */
  private readonly plain = [new Map<string, string>(), new Map<string, string>()] as const
  /** The other events, by the whole key. */
  private readonly forms = new Map<string, string>()
  /** The map and key of the last find(), for the keep() after it; undefined when the event is not memoised. */
  private into: Map<string, string> | undefined
  private key = ''

  constructor(private readonly max: number = MEMO_MAX) {}

  get size(): number {
    return this.plain[0].size + this.plain[1].size + this.forms.size
  }

  /** The form of an event whose key equals a known one's; undefined otherwise (then keep() its form). */
  find(type: string, message: string, dropLeading: boolean, stack: string): string | undefined {
    if (message.length > MAX_MESSAGE || stack.length > MAX_MESSAGE) {
      this.into = undefined
      return undefined
    }
    const folded = messageKey(message)
    if (type === '' && stack === '') {
      this.into = this.plain[dropLeading ? 1 : 0]
      this.key = folded
    } else {
      this.into = this.forms
      this.key = `${dropLeading ? 't' : 'f'}${type.length}:${type}${folded.length}:${folded}${stackKey(stack)}`
    }
    return this.into.get(this.key)
  }

  /** The form of the event the last find() missed. */
  keep(form: string): void {
    const into = this.into
    if (into === undefined) return
    this.into = undefined
    if (this.size >= this.max) {
      this.plain[0].clear()
      this.plain[1].clear()
      this.forms.clear()
    }
    into.set(this.key, form)
  }
}
