// What can be read of one JSON document cut short or spoilt part way (a state file replaced whole,
// damaged on disk). A state file's records are the members of the document or of a container
// directly in it (`{"silences":[{..},{..}]}`, `{"version":2,"leads":{"k":{..}}}`), so the text is cut
// only between those: the longest prefix that parses with the containers still open closed keeps
// every record before the damage, whole, and never a record cut in two. After spoilt bytes inside
// an array of records, the records that follow are read one by one and kept when each parses.
//
// The text is scanned once for the places a record ends (a comma, a closing bracket, before an
// array's first element, just inside the document's opening) and the brackets open there; the
// prefixes are tried from there by bisection, since a prefix that parses has only parsing prefixes
// before it.

interface Cut {
  /** The prefix's length. */
  at: number
  /** What closes the containers open there, innermost first. */
  closers: string
}

interface Scan {
  cuts: Cut[]
  /** Where each element of an array of records starts and ends. */
  elements: Array<{ start: number; end: number }>
}

const CLOSER: Readonly<Record<string, string>> = { '{': '}', '[': ']' }
/** Records are members of containers at most this deep (the document is 1). */
const RECORD_DEPTH = 2

function scanOf(text: string): Scan {
  const cuts: Cut[] = []
  const elements: Scan['elements'] = []
  const open: string[] = []
  const closers = (): string => [...open].reverse().join('')
  let start = -1
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
      const inRecords = open.length === RECORD_DEPTH && open.at(-1) === ']'
      if (open.length === 0) cuts.push({ at: i + 1, closers: CLOSER[c] as string })
      else if (inRecords && /\[\s*$/.test(text.slice(Math.max(0, i - 64), i))) cuts.push({ at: i, closers: closers() })
      if (inRecords) start = i
      open.push(CLOSER[c] as string)
    } else if (c === '}' || c === ']') {
      if (open.pop() !== c) break
      if (open.length > 0 && open.length <= RECORD_DEPTH) cuts.push({ at: i + 1, closers: closers() })
      if (open.length === RECORD_DEPTH && start >= 0) elements.push({ start, end: i + 1 })
    } else if (c === ',' && open.length > 0 && open.length <= RECORD_DEPTH) cuts.push({ at: i, closers: closers() })
  }
  return { cuts, elements }
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/** The records of an array that follow the prefix kept, each kept when it parses alone. */
function withLaterRecords(text: string, cut: Cut, scan: Scan): { value: unknown } | undefined {
  if (cut.closers.length !== RECORD_DEPTH || !cut.closers.startsWith(']')) return undefined
  const later = scan.elements.filter((e) => e.start >= cut.at && parsed(text.slice(e.start, e.end)) !== undefined)
  if (later.length === 0) return undefined
  const prefix = text.slice(0, cut.at)
  const joiner = /\[\s*$/.test(prefix) ? '' : ','
  return parsed(prefix + joiner + later.map((e) => text.slice(e.start, e.end)).join(',') + cut.closers)
}

/** The document as far as it can be read; undefined when not even its opening can. */
export function salvageJson(text: string): unknown {
  const scan = scanOf(text)
  let best: { value: unknown; cut: Cut } | undefined
  let low = 0
  let high = scan.cuts.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const cut = scan.cuts[middle] as Cut
    const tried = parsed(text.slice(0, cut.at) + cut.closers)
    if (tried === undefined) high = middle - 1
    else {
      best = { value: tried.value, cut }
      low = middle + 1
    }
  }
  if (best === undefined) return undefined
  return (withLaterRecords(text, best.cut, scan) ?? best).value
}
