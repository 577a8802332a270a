'use strict'
// BENCHMARKS.md as a reference, made anew by `npm run bench -- --write` (bench/run.js): for each
// benchmark what it measures, the command that made its figures, its peers, and its table; the machine
// and the date once at the top. History is not kept here: it is in git (`git log -p BENCHMARKS.md`).
//
// Figures that no bench of this repository makes (the outside agent harness, measured by hand) live
// between the KEPT markers: a rewrite carries that block over unchanged, so it is edited by hand only.

const { existsSync, readFileSync, writeFileSync } = require('node:fs')
const { cpus, totalmem, release } = require('node:os')

const KEPT_BEGIN = '<!-- kept: written by hand, carried over by --write -->'
const KEPT_END = '<!-- end of kept -->'

function keptBlock(file) {
  if (!existsSync(file)) return undefined
  const text = readFileSync(file, 'utf8')
  const begin = text.indexOf(KEPT_BEGIN)
  const end = text.indexOf(KEPT_END)
  if (begin === -1 || end < begin) return undefined
  return text.slice(begin, end + KEPT_END.length)
}

function machineLine(now) {
  const cpu = cpus()
  const model = cpu[0]?.model.trim() ?? 'unknown CPU'
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB`
  const date = now.toISOString().slice(0, 16).replace('T', ' ')
  return `${date} UTC; ${cpu.length} x ${model}, ${memory}; Linux ${release()}; node ${process.version}`
}

function peersOf(outcome) {
  const peers = [...new Set(outcome.rows.map((row) => row.peer).filter((peer) => peer !== null))]
  return peers.length === 0 ? 'none (absolute figures)' : peers.join(', ')
}

function benchSection(outcome, table, tableRows) {
  const command = `node bench/${outcome.name}.js ${(outcome.args ?? []).join(' ')}`.trimEnd()
  const lines = [`## ${outcome.name}`, '', `${outcome.what ?? ''}`.trim(), '']
  lines.push(`- command: \`${command}\``, `- peers: ${peersOf(outcome)}`, '')
  if (outcome.status === 'skipped') lines.push(`Skipped in this run: ${outcome.problem}.`)
  else lines.push(table(tableRows([outcome])))
  return lines.join('\n')
}

/** Writes `file` from one run's outcomes; the kept block of the file it replaces is carried over. */
function writeBenchmarksFile(file, { outcomes, full, table, tableRows, now = new Date() }) {
  const kept = keptBlock(file) ?? `${KEPT_BEGIN}\n${KEPT_END}`
  const settings = full
    ? 'each bench with its own defaults (`npm run bench -- --full --write`)'
    : 'quick settings (`npm run bench -- --write`): noisier and smaller than `--full`'
  const head = [
    '# Benchmarks',
    '',
    'Made by `bench/run.js --write`; do not edit the tables by hand (the block of outside figures below is',
    'the exception). Every row runs logx and its peer in the same process or the same run. "x peer" above 1',
    'means logx is ahead. Earlier figures and the reasoning behind them are in git history.',
    '',
    `- machine: ${machineLine(now)}`,
    `- settings: ${settings}`,
    '',
    kept,
  ]
  const sections = outcomes.map((outcome) => benchSection(outcome, table, tableRows))
  writeFileSync(file, `${[...head, '', ...sections].join('\n')}\n`)
}

module.exports = { writeBenchmarksFile, KEPT_BEGIN, KEPT_END }
