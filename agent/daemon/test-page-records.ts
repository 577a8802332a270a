// How far the API says a test page's messages went: the first page of each channel kind's records,
// read before the page is sent (what was there already is not ours) and while it waits. Tolerant by
// design: a listing that fails, a record of another shape, a status nobody documented all leave a
// channel as it was (a real API may show nothing), and nothing here throws.
import type { MessagingClient } from '../messaging'
import type { TestPageChannelView } from './console/test-page-types'

type Lister = Pick<MessagingClient, 'listSmsRecords' | 'listMailRecords' | 'listChatRecords' | 'listObdRecords'>

/** A record as read: its id, its status, and whether it is the test page's (by its text). */
interface Listed {
  id: string
  status: string | undefined
  text: string | undefined
}

const PAGE = { perPage: 50 }

function fieldOf(record: unknown, name: string): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined
  const value = (record as Record<string, unknown>)[name]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

async function list(client: Lister, type: string): Promise<Listed[] | undefined> {
  try {
    const page =
      type === 'sms'
        ? await client.listSmsRecords(PAGE)
        : type === 'mail'
          ? await client.listMailRecords(PAGE)
          : type === 'chat'
            ? await client.listChatRecords(PAGE)
            : await client.listObdRecords(PAGE)
    const text = type === 'sms' ? 'sms' : type === 'mail' ? 'subject' : undefined
    return page.records.flatMap((r) => {
      const id = fieldOf(r, 'id')
      return id === undefined
        ? []
        : [{ id, status: fieldOf(r, 'status'), text: text === undefined ? undefined : fieldOf(r, text) }]
    })
  } catch {
    return undefined
  }
}

export interface RecordWatch {
  /** Reads what the API lists now: those records are not the page's. */
  before(): Promise<void>
  /** Brings each channel's status up to what the API lists; `now` dates the changes. */
  update(channels: TestPageChannelView[], text: string, now: number): Promise<void>
}

/** The status a record's API status means for the page (undocumented states count as sent). */
export function channelStatusOf(apiStatus: string | undefined): TestPageChannelView['status'] {
  if (apiStatus === 'delivered') return 'delivered'
  if (apiStatus === 'failed' || apiStatus === 'undelivered' || apiStatus === 'rejected') return 'failed'
  return 'sent'
}

export function createRecordWatch(client: Lister, types: readonly string[]): RecordWatch {
  const known = new Map<string, Set<string>>()
  /** Per channel, the record taken as its message. */
  const taken = new Map<string, string>()
  const kinds = [...new Set(types)]

  function pick(channel: TestPageChannelView, records: Listed[], text: string): Listed | undefined {
    const mine = taken.get(channel.channel)
    if (mine !== undefined) return records.find((r) => r.id === mine)
    const old = known.get(channel.type) ?? new Set()
    const used = new Set(taken.values())
    const found = records.find((r) => !old.has(r.id) && !used.has(r.id) && (r.text === undefined || r.text === text))
    if (found !== undefined) taken.set(channel.channel, found.id)
    return found
  }

  return {
    async before() {
      for (const type of kinds) known.set(type, new Set((await list(client, type))?.map((r) => r.id)))
    },
    async update(channels, text, now) {
      const open = channels.filter((c) => c.status === 'queued' || c.status === 'sent')
      for (const type of new Set(open.map((c) => c.type))) {
        const records = await list(client, type)
        if (records === undefined) continue
        for (const channel of open.filter((c) => c.type === type)) {
          const record = pick(channel, records, text)
          if (record === undefined) continue
          const status = channelStatusOf(record.status)
          channel.apiStatus = record.status
          channel.sentAt ??= now
          if (status !== 'sent') channel.deliveredAt ??= now
          channel.status = status
        }
      }
    },
  }
}
