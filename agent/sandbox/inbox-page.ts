// The web inbox served at `/`: plain HTML and browser JS in one string, no bundler. It loads the
// newest records and missed calls from /_sandbox/records, then follows /_sandbox/events (SSE) for
// new ones, and simulates a missed call through POST /_sandbox/missed-calls.
// Everything user-supplied is rendered with textContent (or set as a property), never as markup, and
// the page's one style and one script run under a fresh nonce per answer, so its Content-Security-Policy
// refuses any other script (inline handlers included); nobody may frame it (clickjacking the form).

import { randomBytes } from 'node:crypto'
import { SANDBOX_MISSED_CALL_NUMBER } from './missed-calls'

/** Stands for the nonce in the document until an answer puts its own in. */
const NONCE = '\u0000nonce\u0000'

/** How many recently paged numbers the missed-call form offers. */
const RECENT_NUMBERS = 10

const INBOX_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>logx sandbox inbox</title>
<style nonce="${NONCE}">
  :root { font-family: system-ui, sans-serif; color: #1d2330; background: #f5f6f8; }
  body { margin: 0; }
  header { background: #1d2330; color: #fff; padding: 12px 20px; }
  header { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  #live-status { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #7a2e2e; }
  #live-status.live { background: #2e7a44; }
  #search { flex: 1; min-width: 200px; padding: 6px 10px; border-radius: 4px; border: 0; font-size: 14px; }
  nav { padding: 8px 20px; display: flex; gap: 14px; flex-wrap: wrap; background: #e4e7ec; font-size: 14px; }
  nav label { cursor: pointer; user-select: none; }
  main { padding: 12px 20px; display: grid; gap: 20px; align-items: start; }
  main { grid-template-columns: minmax(0, 1fr) 340px; }
  @media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } }
  h2 { font-size: 15px; margin: 0 0 8px; }
  #missed-calls { background: #fff; border-radius: 6px; padding: 10px 14px; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  #missed-call-form { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
  #missed-call-form { font-size: 14px; margin-bottom: 10px; }
  #missed-call-form input { padding: 4px 6px; width: 130px; }
  #missed-call-status { flex-basis: 100%; font-size: 12px; min-height: 1em; }
  #missed-call-status.error { color: #a02020; } #missed-call-status.ok { color: #2e7a44; }
  li.missed-call { border-top: 1px solid #e4e7ec; padding: 6px 0; font-size: 14px; }
  .kind.kind-missed { background: #f9d6d6; white-space: nowrap; }
  .caller { font-weight: 600; } .called { font-size: 12px; color: #445; }
  ol { list-style: none; margin: 0; padding: 0; }
  li.message { background: #fff; border-radius: 6px; margin-bottom: 8px; padding: 10px 14px; }
  li.message { box-shadow: 0 1px 2px rgba(0,0,0,.08); cursor: pointer; }
  .top { display: flex; gap: 10px; align-items: baseline; }
  .kind { font-size: 11px; font-weight: 700; text-transform: uppercase; }
  .kind { padding: 1px 6px; border-radius: 3px; background: #dde3f0; }
  .kind-sms { background: #d4eddc; } .kind-mail { background: #dbe6fb; } .kind-chat { background: #f6e7c8; }
  .kind-voice { background: #f0d7ef; } .kind-lead { background: #e0e0e0; } .kind-activity { background: #fde0d5; }
  .to { font-weight: 600; } .time { margin-left: auto; font-size: 12px; color: #667; }
  .title { margin-top: 4px; font-weight: 600; }
  .body { margin-top: 4px; white-space: pre-wrap; word-break: break-word; }
  pre.details { display: none; background: #f3f4f6; padding: 8px; overflow: auto; font-size: 12px; }
  li.open pre.details { display: block; }
  #empty { color: #667; padding: 20px 0; }
</style>
</head>
<body>
<header>
  <h1>logx sandbox inbox</h1>
  <span id="live-status">offline</span>
  <input id="search" type="search" placeholder="Search messages" aria-label="Search messages" autocomplete="off">
  <span id="count" aria-live="polite"></span>
</header>
<nav id="filters" aria-label="Filter by kind"></nav>
<main>
  <section id="messages-pane" aria-label="Messages">
    <p id="empty" hidden>No messages.</p>
    <ol id="messages"></ol>
  </section>
  <section id="missed-calls" aria-labelledby="missed-calls-title">
    <h2 id="missed-calls-title">Missed calls</h2>
    <form id="missed-call-form" autocomplete="off" novalidate>
      <label for="missed-caller">Simulate a missed call from</label>
      <input id="missed-caller" name="caller" type="tel" list="recent-numbers" placeholder="+91 98000 00001">
      <label for="missed-called">to</label>
      <input id="missed-called" name="called" type="tel" value="${SANDBOX_MISSED_CALL_NUMBER}">
      <button type="submit">Call</button>
      <span id="missed-call-status" role="status"></span>
    </form>
    <datalist id="recent-numbers"></datalist>
    <p id="missed-empty" hidden>No missed calls.</p>
    <ol id="missed-list"></ol>
  </section>
</main>
<script nonce="${NONCE}">
(function () {
  'use strict'
  var KINDS = [
    ['sms', 'SMS'], ['mail', 'E-mail'], ['chat', 'Chat'], ['voice', 'Voice'],
    ['lead', 'Leads'], ['activity', 'Activities']
  ]
  var items = []
  var seen = new Set()
  var missed = []
  var missedSeen = new Set()
  var recentKey = ''
  var enabled = new Set(KINDS.map(function (k) { return k[0] }))
  var list = document.getElementById('messages')
  var search = document.getElementById('search')
  var filters = document.getElementById('filters')

  KINDS.forEach(function (k) {
    var label = document.createElement('label')
    var box = document.createElement('input')
    box.type = 'checkbox'
    box.checked = true
    box.setAttribute('data-kind-filter', k[0])
    box.addEventListener('change', function () {
      if (box.checked) enabled.add(k[0]); else enabled.delete(k[0])
      render()
    })
    label.appendChild(box)
    label.appendChild(document.createTextNode(' ' + k[1]))
    filters.appendChild(label)
  })
  search.addEventListener('input', render)

  function str(v) { return v === undefined || v === null ? '' : String(v) }
  function join(v) { return Array.isArray(v) ? v.join(', ') : str(v) }
  // Voice fields are text holding lists; show JSON-encoded ones as a readable list.
  function voiceText(v) {
    try {
      var parsed = JSON.parse(str(v))
      var joined = function (x) { return Array.isArray(x) ? x.join(' ') : str(x) }
      if (Array.isArray(parsed)) return parsed.map(joined).join(', ')
    } catch (e) { /* not JSON: show as sent */ }
    return str(v)
  }

  function summary(item) {
    var r = item.record
    switch (item.kind) {
      case 'sms': return { to: join(r.numbers), title: r.senderi_d ? 'from ' + r.senderi_d : '', body: str(r.sms) }
      case 'mail': return { to: join(r.to), title: str(r.subject), body: str(r.message) }
      case 'chat': return { to: str(r.number), title: 'template ' + str(r.template_id), body: join(r.variable) }
      case 'voice': return { to: voiceText(r.receiver), title: 'audio ' + voiceText(r.attachment), body: '' }
      case 'lead':
        var reach = [r.email, r.phone].filter(Boolean).join(' / ')
        return { to: str(r.name), title: 'lead ' + str(r.lead_id), body: reach }
      case 'activity':
        return { to: 'lead ' + str(r.lead_id), title: str(r.activity_type) + ': ' + str(r.title), body: str(r.notes) }
      default: return { to: '', title: '', body: JSON.stringify(r) }
    }
  }

  function matches(item, needle) {
    if (!enabled.has(item.kind)) return false
    if (needle === '') return true
    return JSON.stringify(item.record).toLowerCase().indexOf(needle) !== -1
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag)
    if (cls) e.className = cls
    if (text !== undefined) e.textContent = text
    return e
  }

  function render() {
    var needle = search.value.trim().toLowerCase()
    var shown = items.filter(function (i) { return matches(i, needle) })
    list.textContent = ''
    shown.forEach(function (item) {
      var s = summary(item)
      var li = el('li', 'message')
      li.setAttribute('data-kind', item.kind)
      li.setAttribute('data-seq', String(item.seq))
      var top = el('div', 'top')
      top.appendChild(el('span', 'kind kind-' + item.kind, item.kind))
      top.appendChild(el('span', 'to', s.to))
      top.appendChild(el('span', 'time', new Date(item.record.created_at).toLocaleString()))
      li.appendChild(top)
      if (s.title) li.appendChild(el('div', 'title', s.title))
      if (s.body) li.appendChild(el('div', 'body', s.body))
      li.appendChild(el('pre', 'details', JSON.stringify(item.record, null, 2)))
      li.addEventListener('click', function () { li.classList.toggle('open') })
      list.appendChild(li)
    })
    document.getElementById('empty').hidden = shown.length !== 0
    document.getElementById('count').textContent = shown.length + ' of ' + items.length
    renderMissed()
    renderRecentNumbers()
  }

  function renderMissed() {
    var ol = document.getElementById('missed-list')
    ol.textContent = ''
    missed.forEach(function (item) {
      var r = item.record
      var li = el('li', 'missed-call')
      li.setAttribute('data-seq', String(item.seq))
      var top = el('div', 'top')
      top.appendChild(el('span', 'kind kind-missed', 'missed call'))
      top.appendChild(el('span', 'caller', str(r.caller)))
      top.appendChild(el('span', 'time', new Date(r.created_at).toLocaleString()))
      li.appendChild(top)
      li.appendChild(el('div', 'called', 'to ' + str(r.called)))
      ol.appendChild(li)
    })
    document.getElementById('missed-empty').hidden = missed.length !== 0
  }

  // The numbers pages went to lately (SMS and chat), newest first: whom a user would "call back" from.
  function renderRecentNumbers() {
    var numbers = []
    for (var i = 0; i < items.length && numbers.length < ${RECENT_NUMBERS}; i++) {
      var r = items[i].record
      var kind = items[i].kind
      var found = kind === 'sms' && Array.isArray(r.numbers) ? r.numbers : kind === 'chat' ? [r.number] : []
      found.forEach(function (n) {
        var text = str(n)
        if (text !== '' && numbers.indexOf(text) === -1 && numbers.length < ${RECENT_NUMBERS}) numbers.push(text)
      })
    }
    var key = numbers.join(',')
    if (key === recentKey) return
    recentKey = key
    var list = document.getElementById('recent-numbers')
    list.textContent = ''
    numbers.forEach(function (n) {
      var option = document.createElement('option')
      option.value = n
      list.appendChild(option)
    })
  }

  function add(item) {
    var into = item.kind === 'missed' ? missed : items
    var known = item.kind === 'missed' ? missedSeen : seen
    if (known.has(item.seq)) return
    known.add(item.seq)
    into.push(item)
    into.sort(function (a, b) { return b.seq - a.seq })
  }

  function setCallStatus(text, cls) {
    var status = document.getElementById('missed-call-status')
    status.textContent = text
    status.className = cls
  }

  // The new call shows up in the list through the live stream, like one the agent would poll.
  document.getElementById('missed-call-form').addEventListener('submit', function (ev) {
    ev.preventDefault()
    var callerInput = document.getElementById('missed-caller')
    var calledInput = document.getElementById('missed-called')
    var body = { caller: callerInput.value.trim() }
    if (calledInput.value.trim() !== '') body.called = calledInput.value.trim()
    callerInput.removeAttribute('aria-invalid')
    calledInput.removeAttribute('aria-invalid')
    setCallStatus('Calling...', '')
    var post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    fetch('/_sandbox/missed-calls', post)
      .then(function (r) { return r.json().then(function (answer) { return { status: r.status, answer: answer } }) })
      .then(function (res) {
        if (res.status === 201) {
          var call = res.answer.record
          setCallStatus('Missed call from ' + str(call.caller) + ' to ' + str(call.called) + ' recorded', 'ok')
          return
        }
        if (res.answer.field === 'caller') callerInput.setAttribute('aria-invalid', 'true')
        if (res.answer.field === 'called') calledInput.setAttribute('aria-invalid', 'true')
        setCallStatus(str(res.answer.error) || 'refused (HTTP ' + res.status + ')', 'error')
      })
      .catch(function () { setCallStatus('The sandbox did not answer', 'error') })
  })

  function connect() {
    var status = document.getElementById('live-status')
    var source = new EventSource('/_sandbox/events')
    source.addEventListener('ready', function () {
      status.textContent = 'live'
      status.className = 'live'
      document.body.setAttribute('data-live', 'true')
    })
    source.addEventListener('record', function (ev) { add(JSON.parse(ev.data)); render() })
    source.addEventListener('reset', function () {
      items = []; seen.clear(); missed = []; missedSeen.clear(); render()
    })
    source.onerror = function () {
      status.textContent = 'offline'
      status.className = ''
      document.body.setAttribute('data-live', 'false')
    }
  }

  // Subscribe first, then load: a record arriving in between shows up once (deduplicated by seq).
  connect()
  function load(url) { return fetch(url).then(function (r) { return r.json() }) }
  var firstLoads = [load('/_sandbox/records?limit=2000'), load('/_sandbox/records?kind=missed&limit=500')]
  Promise.all(firstLoads).then(function (bodies) {
    bodies.forEach(function (body) { body.records.forEach(add) })
    render()
    document.body.setAttribute('data-loaded', 'true')
  })
})()
</script>
</body>
</html>
`

/** Only the page's own style and script (by their nonce) and requests to its own origin. */
function cspOf(nonce: string): string {
  const sources = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`]
  sources.push(`connect-src 'self'`, `img-src 'none'`, `base-uri 'none'`, `form-action 'none'`)
  sources.push(`frame-ancestors 'none'`)
  return sources.join('; ')
}

const INBOX_PARTS = INBOX_TEMPLATE.split(NONCE)

/** The inbox and the headers that go with it, under a fresh nonce. */
export function renderInbox(): { html: string; headers: Record<string, string> } {
  const nonce = randomBytes(16).toString('base64')
  return {
    html: INBOX_PARTS.join(nonce),
    headers: {
      'content-security-policy': cspOf(nonce),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  }
}
