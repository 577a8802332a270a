// The record listings of the API (sms, mail, chat, obd, missed calls, profile searches, instances):
// each a page at a time or an iterator over all pages, the same two methods for every operation.
import type { CallOptions } from './types'
import { iteratePages, type ListQuery, type RecordPage } from './paging'
import { pagingValues } from './api-requests'
import { MessagingValidationError } from './errors'
import type { MessagingClient } from './types'
import { validatePagingQuery } from './validate'
import {
  PAGING,
  type OperationName,
  type WireChatRecord,
  type WireInstance,
  type WireMailRecord,
  type WireMissedCallRecord,
  type WireObdRecord,
  type WireSmsRecord,
  type WireSocialRecord,
} from './wire'

/** One GET of a listing's page. */
export type ListPage = <T>(
  operation: OperationName,
  query: Record<string, string | undefined>,
  page: number,
  perPage: number,
  callOptions: CallOptions | undefined,
) => Promise<RecordPage<T>>

type Listings = Pick<
  MessagingClient,
  | 'listSmsRecords'
  | 'iterateSmsRecords'
  | 'listMailRecords'
  | 'iterateMailRecords'
  | 'listChatRecords'
  | 'iterateChatRecords'
  | 'listObdRecords'
  | 'iterateObdRecords'
  | 'listMissedCallRecords'
  | 'iterateMissedCallRecords'
  | 'listProfileSearchRecords'
  | 'iterateProfileSearchRecords'
  | 'listInstanceIds'
  | 'iterateInstanceIds'
>

function checkPaging(operation: OperationName, values: Record<string, string | undefined>): void {
  const problems = validatePagingQuery(values)
  if (problems.length > 0) throw new MessagingValidationError(operation, problems)
}

function listing<T>(listPage: ListPage, operation: OperationName) {
  const one = async (query: ListQuery = {}, callOptions?: CallOptions): Promise<RecordPage<T>> => {
    const values = pagingValues(query)
    checkPaging(operation, values)
    return listPage<T>(operation, values, query.page ?? 1, query.perPage ?? PAGING.defaultPerPage, callOptions)
  }
  // Validation errors surface from the first next(), like every other failure of an iterator. A
  // page that fails ends the iteration with its error (one attempt, like any call): the caller
  // may start again from `page`.
  async function* all(query: ListQuery = {}, callOptions?: CallOptions): AsyncGenerator<T, void, undefined> {
    checkPaging(operation, pagingValues(query))
    yield* iteratePages((page) => one({ ...query, page }, callOptions), query.page ?? 1)
  }
  return [one, all] as const
}

export function createRecordListings(listPage: ListPage): Listings {
  const [listSmsRecords, iterateSmsRecords] = listing<WireSmsRecord>(listPage, 'sms_record')
  const [listMailRecords, iterateMailRecords] = listing<WireMailRecord>(listPage, 'mail_record')
  const [listChatRecords, iterateChatRecords] = listing<WireChatRecord>(listPage, 'chat_record')
  const [listObdRecords, iterateObdRecords] = listing<WireObdRecord>(listPage, 'obd_record')
  const [listMissedCallRecords, iterateMissedCallRecords] = listing<WireMissedCallRecord>(listPage, 'missed_record')
  const [listProfileSearchRecords, iterateProfileSearchRecords] = listing<WireSocialRecord>(listPage, 'social_record')
  const [listInstanceIds, iterateInstanceIds] = listing<WireInstance>(listPage, 'get_instance_id')
  return {
    listSmsRecords,
    iterateSmsRecords,
    listMailRecords,
    iterateMailRecords,
    listChatRecords,
    iterateChatRecords,
    listObdRecords,
    iterateObdRecords,
    listMissedCallRecords,
    iterateMissedCallRecords,
    listProfileSearchRecords,
    iterateProfileSearchRecords,
    listInstanceIds,
    iterateInstanceIds,
  }
}
