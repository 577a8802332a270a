// `${VAR}` and `${VAR:-default}` references in string values, resolved when the config loads.
// `$${` writes a literal `${`. A reference's value is never echoed: problems name the variable.

export type Env = Readonly<Record<string, string | undefined>>

export type Interpolation = { ok: true; value: string; referenced: boolean } | { ok: false; message: string }

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export function interpolateEnv(text: string, env: Env): Interpolation {
  if (!text.includes('$')) return { ok: true, value: text, referenced: false }
  let out = ''
  let at = 0
  let referenced = false
  while (at < text.length) {
    const dollar = text.indexOf('$', at)
    if (dollar === -1) {
      out += text.slice(at)
      break
    }
    out += text.slice(at, dollar)
    if (text.startsWith('$${', dollar)) {
      out += '${'
      at = dollar + 3
      continue
    }
    if (text[dollar + 1] !== '{') {
      out += '$'
      at = dollar + 1
      continue
    }
    const close = text.indexOf('}', dollar + 2)
    if (close === -1) return { ok: false, message: `unclosed "\${" reference (write "$\${" for a literal)` }
    const body = text.slice(dollar + 2, close)
    const split = body.indexOf(':-')
    const name = split === -1 ? body : body.slice(0, split)
    if (!NAME.test(name))
      return {
        ok: false,
        message: `malformed reference "\${${body.slice(0, 40)}}": expected \${NAME} or \${NAME:-default}`,
      }
    const value = env[name]
    referenced = true
    if (split !== -1) {
      // Like the shell, `:-` also replaces a variable that is set but empty.
      out += value === undefined || value === '' ? body.slice(split + 2) : value
    } else if (value === undefined) {
      return { ok: false, message: `\${${name}} is not set` }
    } else {
      out += value
    }
    at = close + 1
  }
  return { ok: true, value: out, referenced }
}
