// A pattern is split here into the directory to watch (the longest prefix without wildcards) and a
// matcher for the full path. Supported syntax: `*` and `?` within one path segment, `**` as a whole
// segment (any depth), `[abc]` / `[!abc]`, `{a,b}`.

import { isAbsolute, resolve, sep } from 'node:path'

export interface CompiledGlob {
  readonly pattern: string
  /** Absolute directory that holds every match. */
  readonly base: string
  /** How many directory levels below `base` a match can be; undefined when `**` allows any. */
  readonly depth: number | undefined
  matches(absolutePath: string): boolean
}

const magic = /[*?[\]{}]/

export function compileGlob(pattern: string, cwd: string = process.cwd()): CompiledGlob {
  const absolute = isAbsolute(pattern) ? pattern : resolve(cwd, pattern)
  const segments = absolute.split(sep)
  const firstMagic = segments.findIndex((segment) => magic.test(segment))
  if (firstMagic === -1) {
    const exact = resolve(absolute)
    return { pattern, base: resolve(exact, '..'), depth: 0, matches: (path) => path === exact }
  }
  const base = segments.slice(0, firstMagic).join(sep) || sep
  const rest = segments.slice(firstMagic)
  const recursive = rest.includes('**')
  const source =
    segments.slice(0, firstMagic).map(escapeRegExp).join('\\/') + '\\/' + rest.map(segmentSource).join('\\/')
  // `a/**/b` must also match `a/b`: collapse the optional segment.
  const regex = new RegExp('^' + source.replace(/\\\/\(\?:\.\*\)\\\//g, '(?:\\/|\\/.*\\/)') + '$')
  return {
    pattern,
    base,
    depth: recursive ? undefined : rest.length - 1,
    matches: (path) => regex.test(path),
  }
}

/**
 * The files `exclude` patterns keep out, as one test on an absolute path. A pattern without `/`
 * is matched against the file's name (`*.gz`, `*.[0-9]`, `other-*.log`), so it applies in every
 * directory `paths` reaches; one with `/` against the whole path (relative ones resolved against
 * `cwd`, as `paths` are). Undefined when there are none, so the common case costs nothing.
 */
export function compileExclusion(
  patterns: readonly string[],
  cwd: string = process.cwd(),
): ((absolutePath: string) => boolean) | undefined {
  if (patterns.length === 0) return undefined
  const names: RegExp[] = []
  const paths: CompiledGlob[] = []
  for (const pattern of patterns) {
    if (pattern.includes('/')) paths.push(compileGlob(pattern, cwd))
    else names.push(new RegExp('^' + segmentSource(pattern) + '$'))
  }
  const name = names.length === 0 ? undefined : new RegExp(names.map((regex) => regex.source).join('|'))
  return (path) => {
    if (name !== undefined && name.test(path.slice(path.lastIndexOf(sep) + 1))) return true
    for (const glob of paths) if (glob.matches(path)) return true
    return false
  }
}

/**
 * What is wrong with a pattern, or undefined. The matcher itself reads any text (an unclosed `[` is
 * a literal), which `paths` rely on; a pattern that says what must never be read is held to more:
 * a typo there would silently tail what the user meant to keep out.
 */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'expected a glob, got an empty string'
  if (pattern.includes('\0')) return 'a glob cannot contain a NUL character'
  if (pattern.endsWith('/')) return 'names a directory, not files: end it with "*" for the files in it'
  let braces = 0
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]
    if (char === '[') {
      const close = pattern.indexOf(']', i + 1)
      if (close === -1) return `unclosed "[" at character ${i + 1}`
      const body = pattern.slice(i + 1, close).replace(/^[!^]/, '')
      if (body.length === 0) return `empty character class at character ${i + 1}`
      if (body.includes('/')) return `a character class cannot match "/" (at character ${i + 1})`
      i = close
    } else if (char === '{') braces++
    else if (char === '}' && --braces < 0) return `unmatched "}" at character ${i + 1}`
  }
  return braces > 0 ? 'unclosed "{"' : undefined
}

function segmentSource(segment: string): string {
  if (segment === '**') return '(?:.*)'
  let out = ''
  let braces = 0
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string
    if (char === '*') out += '[^/]*'
    else if (char === '?') out += '[^/]'
    else if (char === '[') {
      const close = segment.indexOf(']', i + 1)
      if (close === -1) {
        out += '\\['
        continue
      }
      let body = segment.slice(i + 1, close)
      const negate = body.startsWith('!') || body.startsWith('^')
      if (negate) body = body.slice(1)
      out += (negate ? '[^/' : '[') + body.replace(/[\\\]]/g, '\\$&') + ']'
      i = close
    } else if (char === '{') {
      braces++
      out += '(?:'
    } else if (char === '}' && braces > 0) {
      braces--
      out += ')'
    } else if (char === ',' && braces > 0) out += '|'
    else out += escapeRegExp(char)
  }
  return out + ')'.repeat(braces)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
