// What can be read of one JSON document cut short or spoilt part way (a state file replaced whole,
// damaged on disk): the longest prefix that ends after a whole member of its container, with the
// containers still open closed. `{"silences":[{..},{..},{"id":"rt-` gives back the first two.
// What follows spoilt bytes is not read: past them, nothing says where a member starts.
//
// The text is scanned once for the places a member ends (a comma, a closing bracket, before an
// array's first element, just inside the document's opening) and the brackets open there; the
// prefixes are tried from there by bisection, since a prefix that parses has only parsing prefixes
// before it.

interface Cut {
  /** The prefix's length. */
  at: number
  /** What closes the containers open there, innermost first. */
  closers: string
}

const CLOSER: Readonly<Record<string, string>> = { '{': '}', '[': ']' }

function cutsOf(text: string): Cut[] {
  const cuts: Cut[] = []
  const open: string[] = []
  const closers = (): string => [...open].reverse().join('')
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      // Before an array's first element (not after it: a cut element is no element), or just
      // inside the document's own opening.
      if (open.length === 0) cuts.push({ at: i + 1, closers: CLOSER[c] as string })
      else if (open.at(-1) === ']' && /\[\s*$/.test(text.slice(Math.max(0, i - 64), i)))
        cuts.push({ at: i, closers: closers() })
      open.push(CLOSER[c] as string)
    } else if (c === '}' || c === ']') {
      if (open.pop() !== c) break
      if (open.length > 0) cuts.push({ at: i + 1, closers: closers() })
    } else if (c === ',' && open.length > 0) cuts.push({ at: i, closers: closers() })
  }
  return cuts
}

function parsed(text: string, cut: Cut): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text.slice(0, cut.at) + cut.closers) as unknown }
  } catch {
    return undefined
  }
}

/** The document as far as it can be read; undefined when not even its opening can. */
export function salvageJson(text: string): unknown {
  const cuts = cutsOf(text)
  let best: { value: unknown } | undefined
  let low = 0
  let high = cuts.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const tried = parsed(text, cuts[middle] as Cut)
    if (tried === undefined) high = middle - 1
    else {
      best = tried
      low = middle + 1
    }
  }
  return best?.value
}
