// A config problem as the CLI prints it: file:line:col path: message, with the control characters a
// quoted value may carry shown escaped (a config value came from a file or ${ENV} someone else wrote).
import { formatProblem, type ConfigProblem } from '../config/errors'
import { terminalText } from './terminal-text'

export const problemLine = (problem: ConfigProblem): string => terminalText(formatProblem(problem))
