// The console page's Kinds panel (issue #29 item 5): its markup and style, put into the page by
// page.ts; its behaviour is page-kinds-script.ts. Nothing here comes from a request: the rows are
// made in the browser with textContent and SVG elements, never from markup.

export const KINDS_STYLE = `
  #kinds-section { grid-column: 1 / -1; }
  td.template { max-width: 420px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  td.template code { font-size: 12px; }
  .new-kind { font-size: 11px; font-weight: 700; padding: 1px 6px; border-radius: 3px; background: #d7f0dc; }
  svg.spark { display: block; } svg.spark rect { fill: #5a78c8; }
  a.incident-link { color: #2a4fb0; }
`

export const KINDS_SECTION = `<section id="kinds-section" hidden>
    <h2>Kinds <span id="kind-count"></span></h2>
    <div class="filter">
      <label>Order <select id="kinds-sort" aria-label="Order of the kinds">
        <option value="count">most lines first</option><option value="new">newest first</option>
      </select></label>
      <label>Mute for <input id="kind-mute-duration" value="1h" size="6" aria-label="Mute duration"></label>
    </div>
    <div class="scroll"><table id="kinds">
      <thead><tr>
        <th>Template</th><th>Level</th><th>Count</th><th>Last 24 h</th><th>First seen</th><th>Hosts</th>
        <th>Incident</th><th></th>
      </tr></thead>
      <tbody></tbody>
    </table></div>
    <p id="no-kinds" hidden>No kinds seen yet.</p>
  </section>`
