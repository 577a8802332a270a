// The Kinds panel's browser script, put inside the page script's closure (page-script.ts), whose
// helpers it calls: request, el, time, say, byName, select (the incidents panel's detail). It asks
// GET /api/kinds at each poll, in the order the toggle chooses, and hides the panel for good when
// the agent keeps no kinds (404). Templates and samples come from log lines: they are shown with
// textContent only; the sparkline is SVG elements made here, no markup and no resource from elsewhere.
// "Mute" makes a run-time silence whose one matcher is the kind's id (`kind=<id>`).

export const PAGE_KINDS_SCRIPT = String.raw`
  var KIND_ROWS = 200
  var SVG = 'http://www.w3.org/2000/svg'
  var LEVEL_NAMES = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' }
  var kindsView = { kinds: [], total: 0, off: false }

  // 24 bars, one per hour (oldest on the left), scaled to the busiest hour.
  function sparkline(hourly) {
    var svg = document.createElementNS(SVG, 'svg')
    var width = 96, height = 20, bar = width / hourly.length
    var most = Math.max.apply(null, hourly.concat([1]))
    svg.setAttribute('class', 'spark')
    svg.setAttribute('width', String(width))
    svg.setAttribute('height', String(height))
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height)
    svg.setAttribute('data-hourly', hourly.join(','))
    var label = document.createElementNS(SVG, 'title')
    label.textContent = 'lines per hour, last 24 h: ' + hourly.join(' ')
    svg.appendChild(label)
    hourly.forEach(function (count, i) {
      if (count === 0) return
      var h = Math.max(1, Math.round(count / most * height))
      var rect = document.createElementNS(SVG, 'rect')
      rect.setAttribute('x', String(i * bar))
      rect.setAttribute('y', String(height - h))
      rect.setAttribute('width', String(Math.max(1, bar - 1)))
      rect.setAttribute('height', String(h))
      svg.appendChild(rect)
    })
    return svg
  }

  function incidentCell(cell, key) {
    if (!key) return
    var link = el('a', key.length > 24 ? key.slice(0, 24) + '\u2026' : key, 'incident-link')
    link.href = '#incidents-section'
    link.title = key
    link.addEventListener('click', function (ev) {
      ev.preventDefault()
      select(key)
      $('incidents-section').scrollIntoView()
    })
    cell.appendChild(link)
  }

  function kindRow(k) {
    var tr = el('tr')
    tr.setAttribute('data-id', k.id)
    var template = tr.appendChild(el('td', null, 'template'))
    template.title = k.sample
    template.appendChild(el('code', k.template))
    if (k.new) template.insertBefore(el('span', 'new', 'new-kind'), template.firstChild)
    tr.appendChild(el('td', LEVEL_NAMES[k.level] || (k.level === undefined ? '' : k.level), 'level'))
    tr.appendChild(el('td', k.count, 'num'))
    tr.appendChild(el('td', null, 'spark')).appendChild(sparkline(k.hourly))
    tr.appendChild(el('td', time(k.firstSeen), 'time first-seen'))
    tr.appendChild(el('td', k.hosts.join(', '), 'hosts'))
    incidentCell(tr.appendChild(el('td', null, 'incident')), k.incident)
    var mute = el('button', 'Mute', 'mute')
    mute.type = 'button'
    mute.addEventListener('click', function () { muteKind(k) })
    tr.appendChild(el('td')).appendChild(mute)
    return tr
  }

  function renderKinds() {
    var body = $('kinds').tBodies[0]
    body.textContent = ''
    kindsView.kinds.forEach(function (k) { body.appendChild(kindRow(k)) })
    $('kind-count').textContent = kindsView.kinds.length + ' of ' + kindsView.total
    $('no-kinds').hidden = kindsView.kinds.length !== 0
    $('kinds-section').hidden = false
  }

  function loadKinds() {
    if (kindsView.off) return Promise.resolve()
    var sort = $('kinds-sort').value
    return request('GET', '/api/kinds?limit=' + KIND_ROWS + '&sort=' + encodeURIComponent(sort)).then(function (data) {
      if ($('kinds-sort').value !== sort) return
      kindsView.kinds = data.kinds
      kindsView.total = data.total
      $('kinds').setAttribute('data-sort', sort)
      renderKinds()
    }, function (err) {
      if (err.status !== 404) throw err
      kindsView.off = true
      $('kinds-section').hidden = true
    })
  }

  function muteKind(k) {
    var body = { matchers: { kind: k.id }, duration: $('kind-mute-duration').value.trim() }
    body.comment = 'kind: ' + k.template.slice(0, 200)
    var by = byName()
    if (by) body.by = by
    request('POST', '/api/silences', body).then(function (data) {
      say('Muted kind ' + k.id + ' until ' + time(data.silence.endsAt))
      return loadSilences()
    }).catch(function (err) { say(err.message, true) })
  }

  $('kinds-sort').addEventListener('change', function () {
    loadKinds().catch(function (err) { say(err.message, true) })
  })
`
