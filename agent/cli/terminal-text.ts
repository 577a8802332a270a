// Text that came from log lines, the config or the agent's API, made safe to print to a terminal:
// a title holding ESC sequences could clear the screen, set the window title (OSC), forge lines
// with CR/LF or reorder what is shown with bidi overrides. Every text printer of the CLI passes its
// values through here; JSON output does not (JSON.stringify escapes C0 itself, and a program reads
// it, not a terminal). Pure. Rules:
// 1. Every C0 control (U+0000-U+001F, tab and newline included: a value's line breaks are not the
//    printer's), DEL (U+007F) and every C1 control (U+0080-U+009F) is shown escaped.
// 2. Tab, LF and CR are shown as `\t`, `\n`, `\r`; the others as `\xHH` (ESC: `\x1b`).
// 3. The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are shown as
//    `\uHHHH`: they reorder the characters after them on the screen.
// 4. Everything else is printed as it is (a backslash too: the text stays readable, and an escape
//    written out is harmless text).
// 5. Text without any of them is returned as it is.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

const hex = (code: number, digits: number): string => code.toString(16).padStart(digits, '0')

function escaped(char: string): string {
  const named = NAMED[char]
  if (named !== undefined) return named
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`
}

/** `text` with its control and bidi characters shown escaped (rules 1 to 5). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escaped)
}

/** Each line of `lines` through terminalText, joined into one text ending in a newline. */
export function terminalLines(lines: readonly string[]): string {
  return `${lines.map(terminalText).join('\n')}\n`
}
