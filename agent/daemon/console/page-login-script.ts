// The part of the console page's script that gets it in (inserted into PAGE_SCRIPT's closure, where
// `$`, `say` and `storage` are defined). The page is served to anyone who reaches the port, so it
// carries no secret; it gets one of two:
// - a session secret, for the one-time code in its URL's fragment (`#login=<code>`, printed by the
//   agent at start and by `logx-agent console`): the fragment is removed from the address bar and
//   history at once, the code traded at POST /api/login, and the secret kept in this closure only
//   (gone with the tab: no storage, no cookie);
// - a token typed into the token form (the configured console.token, or <state_dir>/console.token),
//   kept in sessionStorage for this tab.
// Either travels as `authorization: Bearer`, never in a URL.

export const PAGE_LOGIN_SCRIPT = String.raw`
  var TOKEN_KEY = 'logx.console.token'
  var tabStore = storage('sessionStorage')
  var credential = (tabStore && tabStore.getItem(TOKEN_KEY)) || ''
  var credentialKind = credential ? 'token' : ''

  // The code in #login=<code>, taken out of the address bar and the history before anything else.
  function takeLoginCode() {
    var match = /^#login=([A-Za-z0-9_-]{1,200})$/.exec(location.hash)
    if (location.hash) history.replaceState(null, '', location.pathname + location.search)
    return match === null ? null : match[1]
  }

  function login(code) {
    var init = {
      method: 'POST', cache: 'no-store', credentials: 'omit',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ code: code })
    }
    return fetch('/api/login', init).then(function (res) {
      return res.json().catch(function () { return {} }).then(function (data) {
        if (res.ok && typeof data.session === 'string') {
          credential = data.session
          credentialKind = 'session'
          return
        }
        say('Login refused: ' + (data.error || 'HTTP ' + res.status), true)
      })
    }, function (err) { say('Login failed: ' + err.message, true) })
  }

  function needToken(message) {
    if (credentialKind === 'session') {
      message = 'session ended'
      say('The session ended (agent restarted, or idle): open a new login URL (logx-agent console).', true)
    }
    useToken('')
    $('token-form').hidden = false
    $('status').textContent = message || 'login needed'
  }

  // A typed token is kept for the tab; '' forgets it (refused).
  function useToken(typed) {
    credential = typed
    credentialKind = typed ? 'token' : ''
    if (!tabStore) return
    if (typed) tabStore.setItem(TOKEN_KEY, typed); else tabStore.removeItem(TOKEN_KEY)
  }
`
