// Public surface of the fleet gating: the path's side of a fleet's shared notification log.
export { createFleetClaims, MAX_AHEAD, type FleetClaims } from './fleet-claims'
export { fleetNoticeOf, HeldByPeer, noticeIdOf } from './fleet-gate'
export type {
  Claim,
  FleetGate,
  FleetHooks,
  FleetNotice,
  ManualAction,
  NoticeClaims,
  NoticeWindows,
  PeopleAction,
} from './types'
