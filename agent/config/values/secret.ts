// A secret read from the config (API key, token). It prints as [secret] through String(), JSON and
// util.inspect, so logging a whole config cannot leak it; the code that sends it calls reveal().
import { inspect } from 'node:util'

export interface Secret {
  reveal(): string
  toString(): string
  toJSON(): string
}

const MASK = '[secret]'

export function createSecret(value: string): Secret {
  const secret = {
    reveal: () => value,
    toString: () => MASK,
    toJSON: () => MASK,
    [inspect.custom]: () => MASK,
  }
  return Object.freeze(secret)
}
