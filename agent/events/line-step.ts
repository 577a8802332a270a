// What a multi-line rule says about one line, as one small integer: whether the line continues the
// event before it, and the `mode` the rule carries to the next line (inside a Python traceback,
// after a Go goroutine header...), so the assembler never looks back or ahead.

export interface LineRule {
  /**
   * The line `buf[start..end)` after a line that left `mode` (0 at the start of a stream): the
   * next mode shifted left by one, plus CONTINUES when the line continues the event before it.
   */
  step(mode: number, buf: Buffer, start: number, end: number): number
  /** The same, for a line already decoded (a container log's inner text). */
  stepText(mode: number, text: string): number
}

export const CONTINUES = 1

/** A step's result for a line that continues (or starts) an event and leaves `mode`. */
export const result = (continues: boolean, mode: number): number => (mode << 1) | (continues ? CONTINUES : 0)

export const continues = (step: number): boolean => (step & CONTINUES) === CONTINUES
export const modeOf = (step: number): number => step >>> 1
