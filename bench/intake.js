'use strict'
// The intake benchmark (issue #31): each network source of a real agent, one case after another, in
// its own agent process. Each case lives in its own file and returns its figures; this file runs the
// ones asked for, prints one line each, and reports the rows for `npm run bench` (bench/summary.js).
//
//   http          bench/intake-http.js          NDJSON batches, events/s journaled (no peer)
//   alertmanager  bench/intake-alertmanager.js  webhook -> SMS in the sandbox, p99 (goal <= 20 ms)
//   syslog        bench/intake-syslog.js        RFC 5424 over TCP, lines/s beside rsyslog (goal >= 200,000)
//   otlp          bench/intake-otlp.js          OTLP/HTTP protobuf from the SDK, records/s (goal >= 50,000)
//
// Usage: npm run build && node bench/intake.js [--only http,syslog] [--quick] [--summary]
//   --quick: small settings (what `npm run bench` uses)
const { reportSummary } = require('./summary')

const { fmt } = require('./intake-common')

/** name -> { run(quick) -> result, line(result) -> text, rows(result) -> summary rows }. */
const CASES = {
  http: {
    run: (quick) => require('./intake-http').runHttpCase(quick ? { events: 20_000 } : {}),
    line: (r) => `http: ${fmt(r.eventsPerS)} events/s journaled (${fmt(r.events)} events, peak RSS ` +
      `${r.peakRssMb.toFixed(0)} MB)`,
    rows: (r) => [
      { case: 'http intake', logx: Math.round(r.eventsPerS), unit: 'events/s', better: 'higher' },
      { case: 'http intake peak RSS', logx: Math.round(r.peakRssMb), unit: 'MB', better: 'lower' },
    ],
  },
  // The Alertmanager case (H7): bench/intake-alertmanager.js.
  alertmanager: {
    run: (quick) => require('./intake-alertmanager').runAlertmanagerCase(quick ? { samples: 100, warmup: 20 } : {}),
    line: (r) => `alertmanager: webhook -> SMS p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (goal <= ` +
      `${require('./intake-alertmanager').GOAL_P99_MS} ms), lost ${r.lost}`,
    rows: (r) => [{ case: 'alertmanager webhook -> SMS p99', logx: r.p99, unit: 'ms', better: 'lower' }],
  },
  // The syslog case (H8): bench/intake-syslog.js.
  syslog: {
    run: (quick) => require('./intake-syslog').runSyslogCase(quick ? { lines: 200_000 } : {}),
    line: (r) => `syslog: ${fmt(r.agent.linesPerS)} lines/s` +
      (r.rsyslog === undefined ? ' (no rsyslog peer)' : `, rsyslog ${fmt(r.rsyslog.linesPerS)} lines/s`),
    rows: (r) => [{
      case: 'syslog over TCP',
      logx: Math.round(r.agent.linesPerS),
      ...(r.rsyslog === undefined ? {} : { peer: 'rsyslog', peerValue: Math.round(r.rsyslog.linesPerS) }),
      unit: 'lines/s',
      better: 'higher',
    }],
  },
  // The OTLP case (H8): bench/intake-otlp.js.
  otlp: {
    run: (quick) => require('./intake-otlp').runOtlpCase(quick ? { records: 20_000 } : {}),
    line: (r) => `otlp: ${fmt(r.recordsPerS)} records/s from ${r.senders} senders, agent CPU ` +
      `${r.agentCpuUsPerRecord.toFixed(1)} us/record (peak RSS ${r.peakRssMb.toFixed(0)} MB)`,
    rows: (r) => [
      { case: 'OTLP/HTTP protobuf', logx: Math.round(r.recordsPerS), unit: 'records/s', better: 'higher' },
      {
        case: 'OTLP agent CPU per record',
        logx: Number(r.agentCpuUsPerRecord.toFixed(1)),
        unit: 'us',
        better: 'lower',
      },
    ],
  },
}

async function main() {
  const args = process.argv.slice(2)
  const onlyAt = args.indexOf('--only')
  const names = onlyAt === -1 ? Object.keys(CASES) : String(args[onlyAt + 1] ?? '').split(',')
  const unknown = names.filter((name) => !(name in CASES))
  if (unknown.length > 0) {
    console.error(`intake: no case ${unknown.join(', ')} (cases: ${Object.keys(CASES).join(', ')})`)
    process.exit(2)
  }
  const quick = args.includes('--quick')
  const rows = []
  for (const name of names) {
    const result = await CASES[name].run(quick)
    console.log(CASES[name].line(result))
    rows.push(...CASES[name].rows(result))
  }
  reportSummary('intake', rows)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
