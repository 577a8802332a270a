import { describe, expect, it } from 'vitest'
import { detectLevel } from '../../alerts/detect-level'
import { levelFromName, levelNames } from '../../alerts/levels'

describe('level names', () => {
  it('knows only its own names, not Object.prototype members', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])
      expect(levelFromName(name)).toBeUndefined()
    expect(detectLevel('[constructor] not a level')).toBeUndefined()
    expect(levelFromName('Error')).toBe(50)
  })

  it('lists every name levelFromName knows, with its level', () => {
    const names = levelNames()
    expect(names.length).toBeGreaterThan(6)
    for (const [name, level] of names) expect(levelFromName(name)).toBe(level)
  })
})
