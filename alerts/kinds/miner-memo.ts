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
//  5. At most `max` entries, and MEMO_MAX_CHARS characters of keys, forms and stacks held; when either is
//     full, the memo starts again empty.
//  6. An event with a type or a stack is first compared with the last one of its key but for the stack, found
//     by its type and then its folded message (no key is put together for it): the same stack as it came, or
//     the same once folded by rule 4, gives the same form without reading, folding or hashing it (V8 hashes a
//     string a character at a time, and a fold is a regular expression over the whole stack: for a
//     300-character stack each costs more than masking its message would). "Once folded" compares the stacks
//     folded whole, the lines before the first frame line too (rule 7), so neither stack's language or first
//     frame line is looked for: one replace and one compare.
//  7. Rule 4's text is cut from the stack folded whole, where the first frame line begins: a number rule 4 folds
//     is a `:` and digits, which no frame line's start, `Traceback` header or goroutine header holds, so folding
//     first moves none of them, and the lines it folds are the same as in the part cut first. Two stacks equal
//     once folded whole are of one language and have one text: their folds are one string, from which the
//     language (no number that rule 4 folds is part of what traceKind looks for) and the text are read.
import { traceKind } from '../trace'
import { MAX_MESSAGE } from './miner-mask'

/** Entries per source. */
export const MEMO_MAX = 4096
/** Characters of keys and stacks a source's memo holds (at most 2 bytes each). */
export const MEMO_MAX_CHARS = 4 * 1024 * 1024

const DIGIT = /\d/
/** Rule 2 in one pass: a run of two digits or more is two matches (all but its last digit, then that one). */
const DIGIT_RUNS = /\d+(?=\d)|\d/g
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
  // A global replace costs even where it finds nothing, and many messages hold no digit.
  return DIGIT.test(text) ? text.replace(DIGIT_RUNS, '0') : text
}

// Rule 4 on a stack in two parts, so that rule 6 can compare its text alone: the text, and the tag (`p`, `g`,
// or `o` and the number of lines before the first frame) that stackText sets, with the stack folded whole (rule
// 7; `''` for Python's and Go's); the miner is synchronous, so one stack is in here at a time.
let stackTag = ''
let stackWhole = ''

/** Rule 4's text of a stack, its tag in `stackTag`; `whole`: the stack folded whole, when rule 6 folded it. */
function stackText(stack: string, whole: string | undefined): string {
  const language = traceKind(stack)
  if (language !== 'other') {
    stackTag = language === 'python' ? 'p' : 'g'
    stackWhole = ''
    return stack
  }
  const folded = whole ?? stack.replace(LINE_END_NUMBERS, ':0')
  stackWhole = folded
  let from = folded.search(FIRST_FRAME)
  if (from === -1) {
    stackTag = 'o'
    return ''
  }
  if (folded.charCodeAt(from) === 10 /* \n */) from++
  let before = 0
  for (let at = folded.indexOf('\n'); at !== -1 && at < from; at = folded.indexOf('\n', at + 1)) before++
  stackTag = `o${before}`
  return folded.slice(from)
}

/** Rule 4 on a stack, whole (`''`: none): two stacks whose keys are equal get one form. */
export function stackKey(stack: string): string {
  if (stack === '') return '-'
  const text = stackText(stack, undefined)
  return `${stackTag}:${text}`
}

/** Rule 6: the last event of a key but for the stack, its stack as it came and by rule 4, and their form. */
interface LastEvent {
  stack: string
  tag: string
  text: string
  form: string
  /** Rule 7: the stack folded whole; `''` for Python's and Go's, whose stacks are not folded. */
  whole: string
}

type LastByMessage = Map<string, LastEvent>

export class FormMemo {
  /** Rule 3: events with neither type nor stack, by folded message; [dropLeading false, true]. */
  private readonly plain = [new Map<string, string>(), new Map<string, string>()] as const
  /** The other events, by their stack's tag, the key, and their stack's text (`''` without one). */
  private readonly forms = new Map<string, string>()
  /**
   * Rule 6: by dropLeading [false, true], the type and the folded message, the last event met with them.
   * Comparing a stack with the one before costs less than folding or hashing it, and the events of one key
   * mostly come from one place.
   */
  private readonly lastEvents = [new Map<string, LastByMessage>(), new Map<string, LastByMessage>()] as const
  /** What the last find() looked up, for the keep() after it. */
  private memoised = false
  private plainMap: Map<string, string> | undefined
  private stack = ''
  private tag = ''
  private text = ''
  private whole = ''
  private key = ''
  private type = ''
  private folded = ''
  private dropLeading = false

  /** Rule 5: what the memo holds, in characters. */
  private chars = 0

  constructor(
    private readonly max: number = MEMO_MAX,
    private readonly maxChars: number = MEMO_MAX_CHARS,
  ) {}

  get size(): number {
    return this.plain[0].size + this.plain[1].size + this.forms.size
  }

  /** The form of an event whose key equals a known one's; undefined otherwise (then keep() its form). */
  find(type: string, message: string, dropLeading: boolean, stack: string): string | undefined {
    this.memoised = message.length <= MAX_MESSAGE && stack.length <= MAX_MESSAGE
    if (!this.memoised) return undefined
    const folded = messageKey(message)
    if (type === '' && stack === '') {
      this.plainMap = this.plain[dropLeading ? 1 : 0]
      this.key = folded
      return this.plainMap.get(folded)
    }
    this.plainMap = undefined
    this.type = type
    this.folded = folded
    this.dropLeading = dropLeading
    const last = this.lastEvents[dropLeading ? 1 : 0].get(type)?.get(folded)
    if (last?.stack === stack) return last.form
    const whole = last === undefined || last.whole === '' ? undefined : stack.replace(LINE_END_NUMBERS, ':0')
    if (whole !== undefined && whole === last?.whole) {
      last.stack = stack
      return last.form
    }
    this.stack = stack
    this.text = stack === '' ? '' : stackText(stack, whole)
    this.tag = stack === '' ? '-' : stackTag
    this.whole = stack === '' ? '' : stackWhole
    if (last !== undefined && last.tag === this.tag && last.text === this.text) {
      last.stack = stack
      last.whole = this.whole
      return last.form
    }
    this.key = `${dropLeading ? 't' : 'f'}${type.length}:${type}${folded.length}:${folded}`
    const form = this.forms.get(`${this.tag}:${this.key}${this.text}`)
    if (form !== undefined && last !== undefined) {
      last.stack = stack
      last.tag = this.tag
      last.text = this.text
      last.form = form
      last.whole = this.whole
    }
    return form
  }

  /** The form of the event the last find() missed. */
  keep(form: string): void {
    if (!this.memoised) return
    this.memoised = false
    const plain = this.plainMap !== undefined
    const chars = plain
      ? this.key.length + form.length
      : 2 * (this.key.length + this.text.length) + this.stack.length + this.whole.length + form.length
    if (this.size >= this.max || this.chars + chars > this.maxChars) {
      this.plain[0].clear()
      this.plain[1].clear()
      this.forms.clear()
      this.lastEvents[0].clear()
      this.lastEvents[1].clear()
      this.chars = 0
    }
    this.chars += chars
    if (this.plainMap !== undefined) {
      this.plainMap.set(this.key, form)
      return
    }
    this.forms.set(`${this.tag}:${this.key}${this.text}`, form)
    const byType = this.lastEvents[this.dropLeading ? 1 : 0]
    let byMessage = byType.get(this.type)
    if (byMessage === undefined) {
      byMessage = new Map()
      byType.set(this.type, byMessage)
    }
    byMessage.set(this.folded, { stack: this.stack, tag: this.tag, text: this.text, form, whole: this.whole })
  }
}
