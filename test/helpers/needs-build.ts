// Imported first by a test file that runs the build (the CLI, the bundle, targets in worker threads,
// children that require dist/): it stops the file before its other imports load a stale or missing
// dist/, with the fix in the message.
import { requireBuild } from './build'

requireBuild()
