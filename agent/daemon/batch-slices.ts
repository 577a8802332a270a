// How a reader hands one batch's lines to the pipeline: the tailer's batch is a whole read (256 KiB,
// thousands of lines), the pipeline handles a line synchronously, and a line of a kind never met
// costs the miner tens of microseconds. A backlog handled batch after batch in one turn of the event
// loop held /health, the console and every timer for as long as it took (over a minute for a million
// distinct lines). So a big batch goes over in slices, the loop turning between them. A source of
// events (a multi-line rule, a container log) slices its batches by the same measure, its commits
// stopping before what its events hold (agent/events/event-slices.ts).
//
// Rules:
// 1. A batch of at most SLICE_LINES candidates (the lines left by the pre-filter) goes whole: no
//    turn of the loop, one commit after it, as before (the common case: a few hundred lines).
// 2. A bigger batch: SLICE_LINES candidates a slice, in file order, nothing reordered or skipped.
// 3. After each slice but the last, the batch is committed through the slice's last candidate
//    (the filtered lines before it included), never further: a line's offset is checkpointed only
//    once its slice went through. The last slice is committed with the batch, whole.
// 4. Between two slices the event loop turns once (setImmediate: timers, sockets and file events
//    run), then the next slice is handled with the time of its own start.
// 5. The batch's line count through a candidate is found from the candidate's end offset: the
//    count whose last line ends there; none when no line ends there (then nothing is committed).

/** Candidates a slice holds: ~45 ms of new kinds at the miner's worst, ~1 ms of ordinary lines. */
export const SLICE_LINES = 1024

/** Rules 1 and 2: where the slice that starts at `from` ends (exclusive), of `count` candidates. */
export function sliceEnd(from: number, count: number, sliceLines = SLICE_LINES): number {
  return Math.min(count, from + sliceLines)
}

/**
 * Rule 5: how many of a batch's `lineCount` lines, line i ending at `endOf(i)` (increasing), end at or
 * before `endOffset`; undefined when no line ends exactly there.
 */
export function linesThrough(
  lineCount: number,
  endOf: (index: number) => number,
  endOffset: number,
): number | undefined {
  let low = 0
  let high = lineCount - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const end = endOf(middle)
    if (end === endOffset) return middle + 1
    if (end < endOffset) low = middle + 1
    else high = middle - 1
  }
  return undefined
}

/** Rule 4: one turn of the event loop. */
export function turnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
