// What the pre-filter decides of one line from its first bytes, before any search. Pure, on numbers
// the scanner read (a level of -1: none found). The rules:
// 1. A line kept from earlier reads (completed across two reads) is a candidate: no search, the full
//    path decides (applied by candidate-filter.ts).
// 2. A line starting with `{` cut at max_line_bytes is a candidate: the full path sees only its head.
// 3. A `{"level":V,` line whose V is at or above the threshold, or a `{` line in any other layout
//    (no prefix level), is a candidate.
// 4. A `{"level":V,` line below the threshold is searched for another top-level `"level"` key and
//    for `\u` (JSON keeps the last key; escapes may spell one).
// 5. A plain-text line cut at max_line_bytes is a candidate.
// 6. A head rule (glog, logcat, `error:`, Windows CBS) applies only where the line's first byte
//    allows one, and for a digit only with `-` as third byte or `,` as twentieth.
// 7. A plain-text line whose head rule or first token after its stamp gives a level at or above the
//    threshold is a candidate.
// 8. A plain-text line whose first token gives a level below the threshold is below: no search hit
//    makes it a candidate (detect-level takes the earliest token).
// 9. Any other plain-text line is searched (level words, level keys, `[`, `<`).
// 10. A search hit belongs to the line whose end is the first at or after it.
// 11. A hit makes its line a candidate unless the line is below (rule 8).

/** Not decided by its first bytes: the searches decide (rules 4 and 9). */
export const SEARCHED = 0
export const CANDIDATE = 1
/** Known to be below the threshold (rule 8). */
export const BELOW = 2
export type LineMark = typeof SEARCHED | typeof CANDIDATE | typeof BELOW

const DASH = 0x2d
const COMMA = 0x2c

/** Rules 2 to 4; `prefixLevel` is jsonPrefixLevel's, -1 for another layout. */
export function jsonLineMark(length: number, maxLineBytes: number, prefixLevel: number, threshold: number): LineMark {
  if (length > maxLineBytes || prefixLevel === -1 || prefixLevel >= threshold) return CANDIDATE
  return SEARCHED
}

/** Rule 6: `head` is HEAD_RULE_BY_BYTE of the first byte (1: a rule applies, 2: one may, for a digit). */
export function headRuleApplies(head: number, third: number | undefined, twentieth: number | undefined): boolean {
  return head === 1 || (head === 2 && (third === DASH || twentieth === COMMA))
}

/** Rules 5, 7, 8 and 9; `head` and `leading` are the levels found (-1: none). */
export function textLineMark(
  length: number,
  maxLineBytes: number,
  head: number,
  leading: number,
  threshold: number,
): LineMark {
  if (length > maxLineBytes || head >= threshold || leading >= threshold) return CANDIDATE
  return leading === -1 ? SEARCHED : BELOW
}

/** Rule 10: the index of the line holding buffer position `at`, by binary search on the line ends. */
export function lineIndexAt(ends: Int32Array, at: number): number {
  let low = 0
  let high = ends.length - 1
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ends[middle] as number) < at) low = middle + 1
    else high = middle
  }
  return low
}

/** Rule 11. */
export function markAfterHit(mark: number): number {
  return mark === BELOW ? BELOW : CANDIDATE
}
