// chokidar 4 dropped glob support, so a pattern is split here into the directory to watch (the
// longest prefix without wildcards) and a matcher for the full path. Supported syntax: `*` and `?`
// within one path segment, `**` as a whole segment (any depth), `[abc]` / `[!abc]`, `{a,b}`.

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
  const source = segments.slice(0, firstMagic).map(escapeRegExp).join('\\/') + '\\/' + rest.map(segmentSource).join('\\/')
  // `a/**/b` must also match `a/b`: collapse the optional segment.
  const regex = new RegExp('^' + source.replace(/\\\/\(\?:\.\*\)\\\//g, '(?:\\/|\\/.*\\/)') + '$')
  return {
    pattern,
    base,
    depth: recursive ? undefined : rest.length - 1,
    matches: (path) => regex.test(path),
  }
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
