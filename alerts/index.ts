// Public surface of the alerting domain.
export * from './errors'
export { LEVELS, levelFromName, levelLabel, levelNames, parseLevel } from './levels'
export { compilePath, createRedactor, getPath, redactPaths } from './dot-path'
export type { RedactPath } from './dot-path'
export type { PathGetter, Redactor } from './dot-path'
export {
  ANDROID_LEVELS,
  detectLevel,
  findLevel,
  fromSyslogPriority,
  GLOG_LEVELS,
  levelOfWord,
  UPPER_CASE_TOKENS,
  type LevelMatch,
} from './detect-level'
export { textMessage, textMessageStart } from './text-head'
export { MAX_DEPTH, parseLine, textLine, TOO_DEEP } from './line'
export type { AlertLine } from './line'
export { compileTemplate } from './template'
export type { Template, TemplateVars } from './template'
export { compileFieldMatch, matchField } from './matcher'
export type { FieldMatch, FieldMatcher } from './matcher'
export { compileRule, compileRules, DEFAULT_MIN_LEVEL, DEFAULT_REPEAT_INTERVAL_MS, DEFAULT_TITLE } from './rule'
export type { EscalationConfig, EscalationStep, Rule, RuleConfig } from './rule'
export { selectRule, ruleSelects, lowestLevel } from './select'
export { fingerprint, fingerprintParts, maskMessage, topFrame, INCIDENT_KEY_FIELD } from './fingerprint'
export { hash53 } from './hash53'
export { parseTrace } from './trace'
export type { Trace } from './trace'
export { PAGE_KINDS } from './notice'
export type { Acknowledgement, AckVia, Actor, IncidentSnapshot, IncidentStatus, Notice, NoticeKind } from './notice'
export { createIncidentTable, MAX_TITLE } from './incidents'
export type {
  FleetSeen,
  IncidentChange,
  IncidentTable,
  IncidentTableOptions,
  IncidentStats,
  IncidentView,
} from './incidents'
export {
  ACK_TIMEOUT_ACTOR,
  ackTimedOut,
  decideAcknowledge,
  decideResolve,
  decideUnacknowledge,
  pages,
  peoplePaged,
  pickAcknowledgeable,
} from './acknowledgement'
export type { AckDecision, AckRefusal, AckView, PagedView } from './acknowledgement'
export { causeOf } from './cause'
export { sequence } from './stage'
export type { Stage, StageContext } from './stage'
export { compileSilence, createSilenceSet } from './silences'
export type { Silence, SilenceConfig, SilenceSet } from './silences'
export { createRouteStage } from './route'
export { createBudgetStage } from './budget'
export type { BudgetStage, BudgetStats } from './budget'
export {
  CHAT_DEFAULT_VARIABLES,
  compileChannel,
  compileChannels,
  DEFAULT_SMS_MAX_LENGTH,
  MAIL_SUBJECT_DEFAULTS,
  SMS_DEFAULTS,
} from './channels'
export type { Channel, ChannelDefinition, ChannelType, KindTemplates } from './channels'
export {
  censorLine,
  createCensor,
  scrubLine,
  scrubText,
  SECRET_MASK,
  UNPARSED_WITHHELD,
  usableSecrets,
} from './secrets'
export type { Censor } from './secrets'
export {
  renderMessage,
  scrubSecrets,
  escapeHtml,
  truncate,
  noticeVars,
  ackHintOf,
  asksForAck,
  withHint,
} from './render'
export type { RenderedMessage, RenderOptions } from './render'
export { createAlertEngine, RULE_ANNOTATION } from './engine'
export type { AckOutcome, AlertEngine, AlertEngineOptions, AlertEngineStats, Delivery, SelectedLine } from './engine'
export { isActive } from './active-hours'
export type { ActiveHours } from './active-hours'
export { createInhibitor } from './inhibition'
export type { InhibitRule, Inhibitor } from './inhibition'
export { incidentLabels } from './labels'
export { createAbsenceWatch } from './absence'
export { absenceLine, absenceMessage, formatDuration } from './absence-line'
export type { AbsenceDue, AbsenceEntry, AbsenceStats, AbsenceWatch, AbsenceWatchOptions } from './absence'
export { isTimeZone, localParts, utcOfWall, zonedInstant, zoneOffset } from './zoned-time'
export type { LocalParts, WallTime } from './zoned-time'
export { handoffs, onCallAt, overlappingOverrides } from './schedule'
export type { Handoff, LayerConfig, OnCall, OncallRef, OverrideConfig, Rotation, ScheduleConfig } from './schedule'
export { createKindMiner } from './kinds'
export type { KindEntry, KindMiner, KindMinerOptions, KindMinerStats, KindRef } from './kinds'
