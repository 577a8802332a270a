// The kinds of records the sandbox stores: inbox kinds are what clients send, lookup kinds what the
// service holds for them to read. A leaf.

export const INBOX_KINDS = ['sms', 'mail', 'chat', 'voice', 'lead', 'activity'] as const
export type InboxKind = (typeof INBOX_KINDS)[number]

/** Inbox kinds are what clients send; lookup kinds are what the service holds for them to read. */
export const LOOKUP_KINDS = ['social', 'missed', 'instance', 'chat_group'] as const
export type LookupKind = (typeof LOOKUP_KINDS)[number]

export type StoredKind = InboxKind | LookupKind
export const STORED_KINDS: readonly StoredKind[] = [...INBOX_KINDS, ...LOOKUP_KINDS]

export function isStoredKind(value: string): value is StoredKind {
  return (STORED_KINDS as readonly string[]).includes(value)
}
