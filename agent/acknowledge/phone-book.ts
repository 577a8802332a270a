// Who a missed call is from: the `people:` of the config, looked up by the caller's number. Numbers
// are compared as validate.ts's phone grammar says (samePhone): `+91 98000 00001`, `919800000001`
// and `09800000001` are one phone. An exact match of the digits wins over a match on the last 10
// (a person written with the country prefix beats one written without, when both are listed);
// among equals the first person in the config wins. Keys are worked out once, not per call.
import { phoneKey, phoneKeysMatch } from '../messaging/validate'

export interface PersonEntry {
  name: string
  phone: string | undefined
}

export interface PhoneBook {
  /** The person whose phone `number` is; undefined for an unknown (or unreadable) number. */
  personOf(number: string): string | undefined
}

export function createPhoneBook(people: readonly PersonEntry[]): PhoneBook {
  const entries: Array<{ name: string; key: string }> = []
  for (const p of people) {
    const key = p.phone === undefined ? undefined : phoneKey(p.phone)
    if (key !== undefined) entries.push({ name: p.name, key })
  }
  return {
    personOf(number) {
      const key = phoneKey(number)
      if (key === undefined) return undefined
      return (entries.find((e) => e.key === key) ?? entries.find((e) => phoneKeysMatch(e.key, key)))?.name
    },
  }
}
