// Parses YAML with positions kept: every key and value can be traced back to line:col, so each
// problem points at the exact place in the file even after the document became plain JS.
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
} from 'yaml'

/** A key of a mapping or an index of a list. */
export type Segment = string | number

export interface Position {
  line: number
  col: number
}

export interface YamlSyntaxProblem extends Position {
  message: string
}

export interface YamlSource {
  /** The document as plain JS (undefined for an empty file). */
  value: unknown
  syntax: readonly YamlSyntaxProblem[]
  /** Where the value (or, with 'key', the key) at a path is; falls back to the deepest existing ancestor. */
  locate(path: readonly Segment[], target: 'key' | 'value'): Position
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key)
}

/** The key written at an offset: `sms` in `  sms: { type: sms }`. */
function keyAt(text: string, offset: number): string {
  const rest = text.slice(offset, text.indexOf('\n', offset) === -1 ? undefined : text.indexOf('\n', offset))
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:#]*?)\s*:/.exec(rest)
  return (m?.[1] ?? rest).replace(/^["']|["']$/g, '').trim()
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '')
}

/** Where the first unresolvable alias is, else the first alias (an expansion that grew too large). */
function aliasAt(doc: Document, start: (offset: number | undefined) => Position): Position {
  let unresolved: number | undefined
  let first: number | undefined
  visit(doc, {
    Alias(_key, node) {
      const at = node.range?.[0]
      first ??= at
      if (unresolved === undefined && node.resolve(doc) === undefined) unresolved = at
    },
  })
  return start(unresolved ?? first)
}

export function readYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter()
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const start = (offset: number | undefined): Position => lineCounter.linePos(offset ?? 0)
  const syntax: YamlSyntaxProblem[] = doc.errors.map((err) => {
    const message =
      err.code === 'DUPLICATE_KEY'
        ? `duplicate key ${JSON.stringify(keyAt(text, err.pos[0]))} (keys of a mapping must be unique)`
        : err.code === 'MULTIPLE_DOCS'
          ? 'the file holds several YAML documents ("---"); a config is one document'
          : firstLine(err.message)
    return { ...start(err.pos[0]), message }
  })

  function locate(path: readonly Segment[], target: 'key' | 'value'): Position {
    let node: unknown = doc.contents
    let found: Position = start(doc.contents?.range?.[0])
    for (const [i, segment] of path.entries()) {
      if (isAlias(node)) node = node.resolve(doc)
      let keyNode: unknown
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment))
        if (pair === undefined) return found
        keyNode = pair.key
        node = pair.value
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment]
        keyNode = node
      } else {
        return found
      }
      const keyRange = (keyNode as Node | null)?.range
      const valueRange = (node as Node | null)?.range
      const last = i === path.length - 1
      // A key written with no value (`key:`) has no value node worth pointing at: use the key.
      const range = last && target === 'key' ? keyRange : (valueRange ?? keyRange)
      if (range === undefined || range === null) return found
      found = start(range[0])
    }
    return found
  }

  let value: unknown
  if (syntax.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 1000 })
    } catch (err) {
      // Aliases fail only here: `*a` before (or without) its `&a`, or a document that expands past
      // maxAliasCount (a "billion laughs"). Either is a problem at the first alias that fails.
      syntax.push({ ...aliasAt(doc, start), message: firstLine((err as Error).message) })
    }
  }
  return { value: value === null ? undefined : value, syntax, locate }
}
