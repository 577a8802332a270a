// Suggestions for misspelt keys and names. Optimal-string-alignment distance counts a swapped pair
// of letters as one edit, which is the commonest typo ("tempalte").

export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[] = new Array<number>(rows * cols).fill(0)
  const at = (i: number, j: number): number => d[i * cols + j] as number
  for (let i = 0; i < rows; i++) d[i * cols] = i
  for (let j = 0; j < cols; j++) d[j] = j
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      d[i * cols + j] = best
    }
  }
  return at(a.length, b.length)
}

// camelCase, kebab-case and snake_case spellings of one key should meet: `baseUrl` -> `base_url`.
const fold = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '')

/** The closest candidate, when it is close enough to be what was meant; otherwise undefined. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const folded = fold(name)
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    if (candidate === name) continue
    if (fold(candidate) === folded) return candidate
    const distance = editDistance(folded, fold(candidate))
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const allowed = folded.length <= 3 ? 1 : folded.length <= 6 ? 2 : 3
  return bestDistance <= allowed ? best : undefined
}

/** ` (did you mean "x"?)`, or nothing. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const match = didYouMean(name, candidates)
  return match === undefined ? '' : ` (did you mean "${match}"?)`
}
