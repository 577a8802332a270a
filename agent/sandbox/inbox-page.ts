// The web inbox served at `/`: plain HTML and browser JS in one string, no bundler. It loads the
// newest records from /_sandbox/records, then follows /_sandbox/events (SSE) for new ones.
// Everything user-supplied is rendered with textContent, never as markup.

export const INBOX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>logx sandbox inbox</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2330; background: #f5f6f8; }
  body { margin: 0; }
  header { background: #1d2330; color: #fff; padding: 12px 20px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  #live-status { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #7a2e2e; }
  #live-status.live { background: #2e7a44; }
  #search { flex: 1; min-width: 200px; padding: 6px 10px; border-radius: 4px; border: 0; font-size: 14px; }
  nav { padding: 8px 20px; display: flex; gap: 14px; flex-wrap: wrap; background: #e4e7ec; font-size: 14px; }
  nav label { cursor: pointer; user-select: none; }
  main { padding: 12px 20px; }
  ol { list-style: none; margin: 0; padding: 0; }
  li.message { background: #fff; border-radius: 6px; margin-bottom: 8px; padding: 10px 14px; box-shadow: 0 1px 2px rgba(0,0,0,.08); cursor: pointer; }
  .top { display: flex; gap: 10px; align-items: baseline; }
  .kind { font-size: 11px; font-weight: 700; text-transform: uppercase; padding: 1px 6px; border-radius: 3px; background: #dde3f0; }
  .kind-sms { background: #d4eddc; } .kind-mail { background: #dbe6fb; } .kind-chat { background: #f6e7c8; }
  .kind-voice { background: #f0d7ef; } .kind-lead { background: #e0e0e0; } .kind-activity { background: #fde0d5; }
  .to { font-weight: 600; } .time { margin-left: auto; font-size: 12px; color: #667; }
  .title { margin-top: 4px; font-weight: 600; } .body { margin-top: 4px; white-space: pre-wrap; word-break: break-word; }
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
  <p id="empty" hidden>No messages.</p>
  <ol id="messages"></ol>
</main>
<script>
(function () {
  'use strict'
  var KINDS = [
    ['sms', 'SMS'], ['mail', 'E-mail'], ['chat', 'Chat'], ['voice', 'Voice'], ['lead', 'Leads'], ['activity', 'Activities']
  ]
  var items = []
  var seen = new Set()
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
      if (Array.isArray(parsed)) return parsed.map(function (x) { return Array.isArray(x) ? x.join(' ') : str(x) }).join(', ')
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
      case 'lead': return { to: str(r.name), title: 'lead ' + str(r.lead_id), body: [r.email, r.phone].filter(Boolean).join(' / ') }
      case 'activity': return { to: 'lead ' + str(r.lead_id), title: str(r.activity_type) + ': ' + str(r.title), body: str(r.notes) }
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
  }

  function add(item) {
    if (seen.has(item.seq)) return
    seen.add(item.seq)
    items.push(item)
    items.sort(function (a, b) { return b.seq - a.seq })
  }

  function connect() {
    var status = document.getElementById('live-status')
    var source = new EventSource('/_sandbox/events')
    source.addEventListener('ready', function () {
      status.textContent = 'live'
      status.className = 'live'
      document.body.setAttribute('data-live', 'true')
    })
    source.addEventListener('record', function (ev) { add(JSON.parse(ev.data)); render() })
    source.addEventListener('reset', function () { items = []; seen.clear(); render() })
    source.onerror = function () {
      status.textContent = 'offline'
      status.className = ''
      document.body.setAttribute('data-live', 'false')
    }
  }

  // Subscribe first, then load: a record arriving in between shows up once (deduplicated by seq).
  connect()
  fetch('/_sandbox/records?limit=2000').then(function (r) { return r.json() }).then(function (body) {
    body.records.forEach(add)
    render()
    document.body.setAttribute('data-loaded', 'true')
  })
})()
</script>
</body>
</html>
`
