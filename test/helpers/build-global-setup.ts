// globalSetup of the drills: every drill runs the built agent, so a missing or stale build stops the
// run before the first drill, with the fix in the message.
import { requireBuild } from './build'

export default function setup(): void {
  requireBuild()
}
