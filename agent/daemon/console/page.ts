// The console page served at `/` and `/console`: one HTML document, its style and script inline
// under a per-answer nonce, so the Content-Security-Policy can refuse every other script, inline
// event handlers included. The document is assembled once; an answer only puts its nonce in.
// The page is the same for everyone and carries no secret: it gets in with a one-time login code
// from its URL's fragment or a token typed into its form (page-login-script.ts).

import { randomBytes } from 'node:crypto'
import { KINDS_SECTION, KINDS_STYLE } from './page-kinds'
import { PAGE_SCRIPT } from './page-script'

const NONCE = '\u0000nonce\u0000'

const STYLE = `
  :root { font-family: system-ui, sans-serif; color: #1d2330; background: #f5f6f8; font-size: 14px; }
  body { margin: 0; }
  [hidden] { display: none !important; }
  header { background: #1d2330; color: #fff; padding: 10px 20px; }
  header { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  #status { font-size: 12px; color: #c8cede; }
  header form, header label { display: flex; gap: 6px; align-items: center; }
  .by { margin-left: auto; }
  main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; padding: 12px 20px; }
  main.with-detail { grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); }
  .scroll { overflow-x: auto; }
  td.time { white-space: nowrap; }
  section, aside { background: #fff; border-radius: 6px; padding: 10px 14px; min-width: 0; }
  section, aside { box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  #silences-section, #oncall-section { grid-column: 1 / -1; }
  .zone { color: #667; font-size: 12px; margin-left: 6px; }
  ul.next { margin: 0; padding: 0; list-style: none; } ul.next li { white-space: nowrap; }
  .override { font-size: 11px; color: #8a5a00; margin-left: 4px; }
  h2 { font-size: 16px; margin: 4px 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e4e7ec; vertical-align: top; }
  td.title { max-width: 360px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  td.num { text-align: right; }
  #incidents tbody tr { cursor: pointer; } #incidents tbody tr:hover, tr.selected { background: #eef2fb; }
  .state { font-size: 11px; font-weight: 700; text-transform: uppercase; }
  .state { padding: 1px 6px; border-radius: 3px; background: #e0e0e0; }
  .state-firing { background: #f8d3d0; }
  .state-acknowledged { background: #f6e7c8; }
  .state-pending { background: #dbe6fb; }
  #detail-title { word-break: break-word; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
  dt { color: #667; }
  dd { margin: 0; word-break: break-word; }
  .actions { display: flex; gap: 8px; margin: 10px 0; flex-wrap: wrap; }
  #timeline { padding-left: 18px; } #timeline li { margin-bottom: 4px; }
  #timeline span { margin-right: 8px; }
  #timeline .kind { font-weight: 600; }
  #timeline .time, #timeline .by, #timeline .channel { color: #667; }
  #message { margin: 8px 20px 0; min-height: 1.2em; } #message.error { color: #a11; } #message.ok { color: #2e7a44; }
  .filter { display: flex; gap: 10px; align-items: center; margin-bottom: 6px; }
`

const BODY = `<header>
  <h1>logx console</h1>
  <span id="status">loading</span>
  <form id="token-form" hidden>
    <span id="login-hint">Open the login URL from <code>logx-agent console</code>, or</span>
    <label>Token <input id="token" type="password" autocomplete="off" spellcheck="false"></label>
    <button type="submit">Use token</button>
  </form>
  <label class="by">By <select id="by-person" aria-label="Person">
    <option value="">(type a name)</option>
  </select></label>
  <input id="by-name" placeholder="your name" maxlength="100" aria-label="Your name" autocomplete="off">
</header>
<p id="message" role="status" aria-live="polite"></p>
<main>
  <section id="incidents-section">
    <h2>Incidents <span id="incident-count"></span></h2>
    <div class="filter"><label>State <select id="state-filter">
      <option value="">all</option><option value="firing">firing</option>
      <option value="acknowledged">acknowledged</option><option value="pending">pending</option>
    </select></label></div>
    <div class="scroll"><table id="incidents">
      <thead><tr>
        <th>State</th><th>Title</th><th>Rule</th><th>Count</th><th>First seen</th><th>Last seen</th>
        <th>Paged</th><th>Acked by</th><th>Hosts</th>
      </tr></thead>
      <tbody></tbody>
    </table></div>
    <p id="no-incidents" hidden>No open incidents.</p>
    <p id="more" hidden></p>
  </section>
  <aside id="detail" hidden>
    <h2 id="detail-title"></h2>
    <dl id="detail-facts"></dl>
    <div class="actions">
      <button id="ack" type="button">Ack</button>
      <button id="unack" type="button">Unack</button>
      <button id="resolve" type="button">Resolve</button>
      <button id="close-detail" type="button">Close</button>
    </div>
    <form id="silence-form">
      Silence rule <b id="silence-rule"></b> for <input id="silence-duration" value="1h" size="6" aria-label="Duration">
      with comment <input id="silence-comment" maxlength="1000" aria-label="Comment">
      <button id="silence" type="submit">Silence</button>
    </form>
    <h3>Timeline</h3>
    <ol id="timeline"></ol>
  </aside>
  ${KINDS_SECTION}
  <section id="oncall-section" hidden>
    <h2>On call</h2>
    <div class="scroll"><table id="oncall">
      <thead><tr><th>Schedule</th><th>Layer</th><th>On call</th><th>Until</th><th>Next handoffs</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>
  <section id="silences-section">
    <h2>Silences</h2>
    <table id="silences">
      <thead><tr><th>Matchers</th><th>Ends</th><th>Comment</th><th>By</th><th>Origin</th><th></th></tr></thead>
      <tbody></tbody>
    </table>
    <p id="no-silences" hidden>No silences.</p>
  </section>
</main>`

export interface ConsolePage {
  /** The document and the CSP header that goes with it, under a fresh nonce. */
  render(): { html: string; csp: string }
}

/** Only the page's own style and script (by their nonce) and requests to its own origin. */
function cspOf(nonce: string): string {
  const sources = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`]
  sources.push(`connect-src 'self'`, `img-src 'none'`, `base-uri 'none'`, `form-action 'none'`)
  sources.push(`frame-ancestors 'none'`)
  return sources.join('; ')
}

export function createConsolePage(): ConsolePage {
  const template = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>logx console</title>
<style nonce="${NONCE}">${STYLE}${KINDS_STYLE}</style>
</head>
<body>
${BODY}
<script nonce="${NONCE}">${PAGE_SCRIPT}</script>
</body>
</html>
`
  const parts = template.split(NONCE)
  return {
    render() {
      const nonce = randomBytes(16).toString('base64')
      return {
        html: parts.join(nonce),
        csp: cspOf(nonce),
      }
    },
  }
}
