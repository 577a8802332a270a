// The console page's browser script: plain DOM, no framework, no build step. It polls the API every
// 3 s and renders with textContent only (titles come from log lines: `<img onerror=...>` must show
// as text). Listeners are attached here, never inline, so the page's CSP forbids inline handlers.
// Getting in (a one-time login code or a typed token) is PAGE_LOGIN_SCRIPT's; the page polls only
// once it holds one. The "by" name is remembered in localStorage. Schedules' times are shown on the schedule's own
// clock (Intl, its IANA zone), as a rota is written.

import { PAGE_KINDS_SCRIPT } from './page-kinds-script'
import { PAGE_LOGIN_SCRIPT } from './page-login-script'

export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict'
  var POLL_MS = 3000
  var MAX_ROWS = 1000
  var BY_KEY = 'logx.console.by'
  var LABELS = { ack: 'Acknowledged', unack: 'Unacknowledged', resolve: 'Resolved' }

  function $(id) { return document.getElementById(id) }
  function storage(kind) {
    try { return window[kind] } catch (e) { return null }
  }
  var local = storage('localStorage')
  ${PAGE_LOGIN_SCRIPT}${PAGE_KINDS_SCRIPT}
  var view = {
    incidents: [], total: 0, filter: '', selected: null, detail: null,
    silences: [], schedules: [], polls: 0
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag)
    if (text !== undefined && text !== null) e.textContent = String(text)
    if (cls) e.className = cls
    return e
  }
  function pad(n) { return (n < 10 ? '0' : '') + n }
  // Local time, sortable and short: 2024-05-01 14:03:09.
  function time(ms) {
    if (typeof ms !== 'number') return ''
    var d = new Date(ms)
    var date = d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate())
    return date + ' ' + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds())
  }
  var DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
  var zoneFormats = {}
  // Mon 2026-03-09 09:00 on the clock of timeZone; the browser's own clock if it does not know the zone.
  function zoned(ms, timeZone) {
    var format = zoneFormats[timeZone]
    if (format === undefined) {
      try {
        format = new Intl.DateTimeFormat('en-US', {
          timeZone: timeZone, hourCycle: 'h23', weekday: 'short',
          year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit'
        })
      } catch (e) { format = null }
      zoneFormats[timeZone] = format
    }
    if (format === null) return time(ms).slice(0, 16)
    var p = {}
    format.formatToParts(new Date(ms)).forEach(function (part) { p[part.type] = part.value })
    return p.weekday + ' ' + p.year + '-' + p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute
  }
  function say(text, isError) {
    var m = $('message')
    m.textContent = text
    m.className = isError ? 'error' : 'ok'
  }

  function request(method, path, body) {
    var headers = { accept: 'application/json' }
    var used = credential
    if (used) headers.authorization = 'Bearer ' + used
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' }
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    return fetch(path, init).then(function (res) {
      return res.json().catch(function () { return {} }).then(function (data) {
        if (res.ok) return data
        // An answer to a request sent before the token was changed says nothing of the new one.
        if (res.status === 401 && used === credential) needToken(used ? 'wrong token' : 'login needed')
        var err = new Error(data.error || 'HTTP ' + res.status)
        err.status = res.status
        throw err
      })
    })
  }

  // The name actions are made in: a person from /api/people, or typed.
  function byName() {
    var person = $('by-person').value
    if (person) return person
    var typed = $('by-name').value.trim()
    return typed || undefined
  }
  function rememberBy() {
    $('by-name').disabled = $('by-person').value !== ''
    if (!local) return
    var name = byName()
    if (name) local.setItem(BY_KEY, name); else local.removeItem(BY_KEY)
  }
  function loadPeople() {
    return request('GET', '/api/people').then(function (data) {
      var select = $('by-person')
      var stored = local ? local.getItem(BY_KEY) : null
      while (select.options.length > 1) select.remove(1)
      data.people.forEach(function (name) {
        var option = el('option', name)
        option.value = name
        select.appendChild(option)
      })
      if (stored && data.people.indexOf(stored) !== -1) select.value = stored
      else if (stored) $('by-name').value = stored
      $('by-name').disabled = select.value !== ''
    }, function () { /* the first poll says what is wrong */ })
  }

  function renderIncidents() {
    var filter = $('state-filter').value
    var shown = view.incidents.filter(function (i) { return !filter || i.state === filter })
    var body = $('incidents').tBodies[0]
    body.textContent = ''
    shown.forEach(function (inc) {
      var tr = el('tr', null, inc.id === view.selected ? 'selected' : '')
      tr.setAttribute('data-id', inc.id)
      tr.setAttribute('data-state', inc.state)
      tr.tabIndex = 0
      tr.appendChild(el('td')).appendChild(el('span', inc.state, 'state state-' + inc.state))
      tr.appendChild(el('td', inc.title, 'title'))
      tr.appendChild(el('td', inc.rule))
      tr.appendChild(el('td', inc.count, 'num'))
      tr.appendChild(el('td', time(inc.firstSeen), 'time'))
      tr.appendChild(el('td', time(inc.lastSeen), 'time'))
      tr.appendChild(el('td', inc.paged.join(', ')))
      tr.appendChild(el('td', inc.ack ? inc.ack.by + ' (' + inc.ack.via + ')' : '', 'acked-by'))
      tr.appendChild(el('td', hosts(inc), 'hosts'))
      tr.addEventListener('click', function () { select(inc.id) })
      tr.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') select(inc.id) })
      body.appendChild(tr)
    })
    var total = view.filter === filter ? view.total : shown.length
    $('incident-count').textContent = shown.length + ' of ' + total
    $('no-incidents').hidden = shown.length !== 0
    $('more').hidden = total <= shown.length
    $('more').textContent = 'Showing the ' + shown.length + ' seen last; filter by state to narrow.'
  }

  // In a fleet: the agents that saw the incident's lines, with how many each.
  function hosts(inc) {
    return (inc.hosts || []).map(function (h) { return h.agent + ' \u00d7' + h.count }).join(', ')
  }

  function fact(list, name, value) {
    list.appendChild(el('dt', name))
    list.appendChild(el('dd', value))
  }

  function renderDetail() {
    var d = view.detail
    $('detail').hidden = d === null
    document.querySelector('main').className = d === null ? '' : 'with-detail'
    if (d === null) return
    $('detail').setAttribute('data-id', d.id)
    $('detail').setAttribute('data-state', d.state)
    $('detail-title').textContent = d.title
    var facts = $('detail-facts')
    facts.textContent = ''
    fact(facts, 'Incident', d.id)
    fact(facts, 'State', d.state)
    fact(facts, 'Rule', d.rule)
    fact(facts, 'Count', d.count)
    fact(facts, 'First seen', time(d.firstSeen))
    fact(facts, 'Last seen', time(d.lastSeen))
    fact(facts, 'Escalation step', d.step)
    fact(facts, 'Paged', d.paged.join(', ') || 'nobody yet')
    if (d.hosts) fact(facts, 'Seen by', hosts(d))
    fact(facts, 'Acked by', d.ack ? d.ack.by + ' (' + d.ack.via + ', ' + time(d.ack.at) + ')' : '')
    $('ack').disabled = d.state !== 'firing'
    $('unack').disabled = d.state !== 'acknowledged'
    $('resolve').disabled = d.state === 'resolved'
    $('silence-rule').textContent = d.rule
    var list = $('timeline')
    list.textContent = ''
    d.timeline.forEach(function (entry) {
      var li = el('li')
      li.setAttribute('data-kind', entry.kind)
      li.appendChild(el('span', time(entry.at), 'time'))
      li.appendChild(el('span', entry.kind, 'kind'))
      li.appendChild(el('span', entry.text, 'text'))
      if (entry.channel) li.appendChild(el('span', entry.channel, 'channel'))
      if (entry.by) li.appendChild(el('span', 'by ' + entry.by, 'by'))
      list.appendChild(li)
    })
  }

  function renderSilences() {
    var body = $('silences').tBodies[0]
    body.textContent = ''
    var now = Date.now()
    view.silences.forEach(function (s) {
      var tr = el('tr')
      tr.setAttribute('data-id', s.id)
      tr.setAttribute('data-origin', s.origin)
      var matchers = Object.keys(s.matchers).map(function (k) { return k + '=' + s.matchers[k] }).join(', ')
      tr.appendChild(el('td', matchers, 'matchers'))
      tr.appendChild(el('td', s.endsAt <= now ? 'expired' : time(s.endsAt)))
      tr.appendChild(el('td', s.comment || ''))
      tr.appendChild(el('td', s.createdBy || ''))
      tr.appendChild(el('td', s.origin))
      var cell = tr.appendChild(el('td'))
      if (s.origin === 'runtime' && s.endsAt > now) {
        var button = el('button', 'Expire', 'expire')
        button.type = 'button'
        button.addEventListener('click', function () { expire(s.id) })
        cell.appendChild(button)
      } else if (s.origin === 'config') {
        cell.textContent = 'in the config'
      }
      body.appendChild(tr)
    })
    $('no-silences').hidden = view.silences.length !== 0
  }

  function person(cell, user, override) {
    cell.appendChild(el('span', user, 'user'))
    if (override) cell.appendChild(el('span', 'override', 'override'))
  }

  // One row per layer: who holds it now, until when, and the next handoffs, on the schedule's clock.
  function renderSchedules() {
    var body = $('oncall').tBodies[0]
    body.textContent = ''
    view.schedules.forEach(function (s) {
      s.layers.forEach(function (layer, i) {
        var tr = el('tr')
        tr.setAttribute('data-schedule', s.name)
        tr.setAttribute('data-layer', layer.name)
        var name = tr.appendChild(el('td', null, 'schedule'))
        if (i === 0) {
          name.appendChild(el('span', s.name))
          name.appendChild(el('span', s.timeZone, 'zone'))
        }
        tr.appendChild(el('td', layer.name, 'layer'))
        var now = tr.appendChild(el('td', null, 'now'))
        if (layer.now) person(now, layer.now.user, layer.now.override)
        else now.textContent = 'nobody'
        var until = layer.now ? layer.now.until : (layer.next[0] ? layer.next[0].at : null)
        tr.appendChild(el('td', until === null ? 'no handoff ahead' : zoned(until, s.timeZone), 'until time'))
        var list = tr.appendChild(el('td')).appendChild(el('ul', null, 'next'))
        layer.next.forEach(function (h) {
          var li = list.appendChild(el('li'))
          li.appendChild(el('span', zoned(h.at, s.timeZone) + ' ', 'time'))
          person(li, h.user, h.override)
        })
        body.appendChild(tr)
      })
    })
    $('oncall-section').hidden = view.schedules.length === 0
  }

  // Only what the table shows: the state filter and the row limit go to the server.
  function loadIncidents() {
    var filter = $('state-filter').value
    var query = '?limit=' + MAX_ROWS + (filter ? '&state=' + encodeURIComponent(filter) : '')
    return request('GET', '/api/incidents' + query).then(function (data) {
      view.incidents = data.incidents
      view.total = data.total
      view.filter = filter
      renderIncidents()
      $('token-form').hidden = true
      $('status').textContent = 'updated ' + new Date().toLocaleTimeString()
      document.body.setAttribute('data-loaded', 'true')
    })
  }
  function loadSilences() {
    return request('GET', '/api/silences').then(function (data) {
      view.silences = data.silences
      renderSilences()
    })
  }
  function loadSchedules() {
    return request('GET', '/api/schedules').then(function (data) {
      view.schedules = data.schedules
      renderSchedules()
    })
  }
  function loadDetail() {
    var id = view.selected
    if (id === null) { view.detail = null; renderDetail(); return Promise.resolve() }
    return request('GET', '/api/incidents/' + encodeURIComponent(id)).then(function (data) {
      if (view.selected !== id) return
      view.detail = data.incident
      renderDetail()
    }, function (err) {
      if (err.status !== 404 || view.selected !== id) throw err
      view.selected = null
      view.detail = null
      renderDetail()
    })
  }
  function refresh() {
    return Promise.all([loadIncidents(), loadSilences(), loadSchedules(), loadDetail(), loadKinds()])
  }

  function select(id) {
    view.selected = id
    renderIncidents()
    loadDetail().catch(function (err) { say(err.message, true) })
  }

  function act(action) {
    var d = view.detail
    if (d === null) return
    var body = {}
    var by = byName()
    if (by) body.by = by
    request('POST', '/api/incidents/' + encodeURIComponent(d.id) + '/' + action, body).then(function (data) {
      say(LABELS[action] + ': ' + data.incident.title)
      if (data.incident.state === 'resolved') view.selected = null
      return refresh()
    }).catch(function (err) { say(err.message, true) })
  }

  function silence(ev) {
    ev.preventDefault()
    var d = view.detail
    if (d === null) return
    var body = { matchers: { rule: d.rule }, duration: $('silence-duration').value.trim() }
    var comment = $('silence-comment').value.trim()
    if (comment) body.comment = comment
    var by = byName()
    if (by) body.by = by
    request('POST', '/api/silences', body).then(function (data) {
      say('Silenced rule ' + d.rule + ' until ' + time(data.silence.endsAt))
      $('silence-comment').value = ''
      return loadSilences()
    }).catch(function (err) { say(err.message, true) })
  }

  function expire(id) {
    request('DELETE', '/api/silences/' + encodeURIComponent(id)).then(function () {
      say('Silence expired')
      return loadSilences()
    }).catch(function (err) { say(err.message, true) })
  }

  // Without a credential (refused, or the session ended) nothing is asked until the form gives one.
  function poll() {
    (credential ? refresh() : Promise.resolve()).catch(function (err) {
      $('status').textContent = err.status === 401 ? $('status').textContent : 'offline: ' + err.message
    }).then(function () {
      view.polls += 1
      document.body.setAttribute('data-polls', String(view.polls))
      setTimeout(poll, POLL_MS)
    })
  }

  var polling = false
  function begin() {
    loadPeople()
    if (polling) return refresh().catch(function (err) { say(err.message, true) })
    polling = true
    poll()
  }

  $('token-form').addEventListener('submit', function (ev) {
    ev.preventDefault()
    useToken($('token').value.trim())
    $('token').value = ''
    if (credential) begin()
  })
  $('by-person').addEventListener('change', rememberBy)
  $('by-name').addEventListener('input', rememberBy)
  $('state-filter').addEventListener('change', function () {
    renderIncidents()
    loadIncidents().catch(function (err) { say(err.message, true) })
  })
  $('ack').addEventListener('click', function () { act('ack') })
  $('unack').addEventListener('click', function () { act('unack') })
  $('resolve').addEventListener('click', function () { act('resolve') })
  $('silence-form').addEventListener('submit', silence)
  $('close-detail').addEventListener('click', function () {
    view.selected = null
    view.detail = null
    renderDetail()
    renderIncidents()
  })

  // At load, and when a login URL is pasted into a tab already showing the page (only its fragment changes).
  function enter() {
    var code = takeLoginCode()
    return (code === null ? Promise.resolve() : login(code)).then(function () {
      if (credential) begin(); else needToken()
    })
  }
  window.addEventListener('hashchange', function () { if (location.hash) enter() })
  enter()
})()
`
