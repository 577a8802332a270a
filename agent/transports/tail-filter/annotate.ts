// Pure: the line passed on, marked with the rule that selected it. JSON lines get the field inserted
// first (no re-serialization); plain-text lines become a JSON record so the mark can travel.
import { RULE_ANNOTATION, type AlertLine } from '../../../alerts'

export function annotateLine(line: AlertLine, rule: string): string {
  const mark = `"${RULE_ANNOTATION}":${JSON.stringify(rule)}`
  if (line.json) {
    const rest = line.raw.slice(1).trimStart()
    return rest.startsWith('}') ? `{${mark}${rest}` : `{${mark},${rest}`
  }
  return JSON.stringify({ level: line.level, msg: line.raw, [RULE_ANNOTATION]: rule, logx_text: true })
}
