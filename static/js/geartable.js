// Geartable's own script: live updates pushed by the stream process (server-sent events,
// docs/live.md) where the page has a stream URL, else by polling a cheap version check, slower
// when the tab is hidden; while the stream is healthy the poll only runs as a slow safety net.
// Pages work without it for reading; it only adds freshness. No eval, no inline code (the
// Content-Security-Policy allows neither).
(function () {
  "use strict";

  // The words in the page's language (docs/i18n.md): the djangojs catalog, a static file the
  // frame loads before this script (templates/_js_catalog.html); the English as written here
  // when it is not loaded.
  const gettext = window.gettext || function (text) { return text; };
  const interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (_, name) { return String(values[name]); });
  };

  const VISIBLE_MS = 2000;
  const HIDDEN_MS = 15000;
  // While the stream is healthy it carries everything, the "watching" mark too (the stream
  // process keeps it while the tab is in view: docs/live.md); the poll is only a safety net
  // (a proxy that holds the stream but buffers it), and it keeps the page's key fresh (10
  // minutes) for the stream's reconnects: every 5 minutes, in view or not.
  const STREAM_VISIBLE_MS = 300000;
  const STREAM_HIDDEN_MS = 300000;
  // A stream that failed this many times in a row is given up for a while (the poll takes over)
  // and tried again after a pause with jitter, so a restart does not bring every tab at once.
  const STREAM_FAILURES = 3;
  const STREAM_PAUSE_MS = 60000;

  // One EventSource per tab: `onEvent(data, kind)` for each event; `healthy()` says whether it
  // is open now. It closes itself on "revoked" (the page's grant ended) or repeated errors.
  function openStream(url, params, onEvent, onHealth) {
    if (!url || !window.EventSource) return null;
    let source = null;
    let failures = 0;
    let pausedUntil = 0;
    let healthy = false;

    function setHealthy(value) {
      if (healthy === value) return;
      healthy = value;
      onHealth(value);
    }

    function close(pauseMs) {
      if (source) source.close();
      source = null;
      pausedUntil = Date.now() + pauseMs * (0.5 + Math.random());
      setHealthy(false);
    }

    function connect() {
      const query = params();
      source = new EventSource(url + (query ? "?" + query : ""), { withCredentials: true });
      source.onopen = function () { failures = 0; setHealthy(true); };
      source.onmessage = function (event) { setHealthy(true); onEvent(JSON.parse(event.data)); };
      source.addEventListener("turns", function (event) { onEvent(JSON.parse(event.data)); });
      source.addEventListener("lobby", function (event) { onEvent(JSON.parse(event.data)); });
      source.addEventListener("revoked", function () { close(STREAM_PAUSE_MS); });
      source.onerror = function () {
        setHealthy(false);
        failures += 1;
        // CLOSED: the server refused (403/404/503): the browser will not retry by itself.
        if (source.readyState === EventSource.CLOSED || failures >= STREAM_FAILURES) {
          failures = 0;
          close(STREAM_PAUSE_MS);
        }
      };
    }

    connect();
    return {
      healthy: function () { return healthy; },
      // The page came into view or went out of it: the stream is opened again, so that it
      // knows (h=1: not watching) and sends at once what the page missed, if anything.
      reopen: function () { if (source) { source.close(); connect(); } },
      // Called by the poll: reopen a stream that was given up, once its pause is over.
      retry: function () { if (!source && Date.now() >= pausedUntil) connect(); },
    };
  }

  // A page that is still behind what was announced (its fetch failed: offline, a restart)
  // fetches again after this long, doubled each time up to CATCH_UP_MAX_MS; and a fetch whose
  // answer never came is given up after FETCH_GIVE_UP_MS, so that one lost request cannot
  // hold the page.
  const CATCH_UP_MS = 2000;
  const CATCH_UP_MAX_MS = 60000;
  const FETCH_GIVE_UP_MS = 30000;

  // The parts of a game page that follow the game, and the number each one shows: #game its
  // version (data-version), #chat-log the chat's count (data-seq). Both only ever grow.
  const VERSIONED = { game: "data-version", "chat-log": "data-seq" };

  // The number in an answer's own part: `<div id="game" … data-version="17">`; null if none.
  function numberIn(html, id) {
    const tag = new RegExp('<[a-z]+\\b[^>]*\\bid="' + id + '"[^>]*>').exec(html || "");
    const found = tag && new RegExp("\\b" + VERSIONED[id] + '="(\\d+)"').exec(tag[0]);
    return found ? Number(found[1]) : null;
  }

  function startLive(live) {
    let timer = null;
    let stopped = false;
    let stream = null;

    function schedule() {
      if (stopped) return;
      clearTimeout(timer);
      const pushed = stream && stream.healthy();
      const visibleMs = pushed ? STREAM_VISIBLE_MS : VISIBLE_MS;
      const hiddenMs = pushed ? STREAM_HIDDEN_MS : HIDDEN_MS;
      timer = setTimeout(tick, document.hidden ? hiddenMs : visibleMs);
    }

    // The one rule (docs/live.md, "A page converges"): what the page shows is read from the
    // page itself, the data-version of the #game it last swapped in (and #chat-log's
    // data-seq), never from what an event said. Events and the poll only announce: `wanted`
    // keeps the newest number announced, and `converge` fetches while the page shows less,
    // one fetch at a time; when it lands, it looks again (a burst that came meanwhile is one
    // more fetch, however many events it held). An answer older than what the page shows is
    // never swapped in (keepNewest, below), whatever order the answers arrive in.
    function shownVersion() {
      const game = document.getElementById("game");
      return Number(game ? game.dataset.version : live.dataset.version);
    }
    function shownChat() {
      const chat = document.getElementById("chat-log");
      return chat ? Number(chat.dataset.seq) : null;
    }
    const wanted = { version: shownVersion(), chat: shownChat() === null ? -1 : shownChat() };
    let fetching = false;
    let catchUp = null;
    let catchUpMs = CATCH_UP_MS;

    function announce(version, chat) {
      if (isFinite(version) && version > wanted.version) wanted.version = version;
      if (isFinite(chat) && chat > wanted.chat) wanted.chat = chat;
      converge();
    }

    function behind() {
      const chat = shownChat();
      return wanted.version > shownVersion() || (chat !== null && wanted.chat > chat);
    }

    function refresh(selector, url) {
      const target = document.querySelector(selector);
      if (!target || !url) return Promise.resolve();
      if (!window.htmx) { window.location.reload(); return Promise.resolve(); }
      // The request's source is the part's parent: a queue of its own (the body's, shared by
      // every htmx.ajax, would hold a second request back and settle its promise at once), and
      // still in the page when the answer lands, so that htmx's afterRequest (the "Your turn"
      // count it carries) reaches the document even if the part was replaced meanwhile.
      const source = target.parentElement || target;
      const request = htmx.ajax("GET", url, { source: source, target: target, swap: "outerHTML" });
      return Promise.race([request, new Promise(function (resolve) {
        setTimeout(resolve, FETCH_GIVE_UP_MS);
      })]);
    }

    function converge() {
      if (fetching) return;  // looked at again when the fetch in flight lands
      clearTimeout(catchUp);
      if (!document.getElementById("game")) {  // a table's page: it is drawn whole
        if (wanted.version > shownVersion()) window.location.reload();
        return;
      }
      const work = [];
      if (wanted.version > shownVersion()) work.push(refresh("#game", live.dataset.gameUrl));
      const chat = shownChat();
      if (chat !== null && wanted.chat > chat) work.push(refresh("#chat-log", live.dataset.chatUrl));
      if (!work.length) { catchUpMs = CATCH_UP_MS; return; }
      fetching = true;
      const asked = { version: wanted.version, chat: wanted.chat };
      Promise.all(work).catch(function () { /* offline for a moment */ }).then(function () {
        fetching = false;
        if (wanted.version > asked.version || wanted.chat > asked.chat) { converge(); return; }
        if (!behind()) { catchUpMs = CATCH_UP_MS; return; }
        // Still behind and nothing newer announced: the fetch failed. Again in a moment.
        catchUp = setTimeout(converge, catchUpMs);
        catchUpMs = Math.min(catchUpMs * 2, CATCH_UP_MAX_MS);
      });
    }

    function tick() {
      const params = new URLSearchParams(streamParams());
      fetch(live.dataset.pollUrl + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (resp) {
          showYourTurn(resp.headers.get("X-Your-Turn"));
          // A key past its few minutes (or no longer good) was answered through the session,
          // which sends a fresh one: keep it, and the next checks are fast again.
          const freshKey = resp.headers.get("X-Poll-Key");
          if (freshKey) live.dataset.pollKey = freshKey;
          if (resp.status === 286) { stopped = true; return; }
          if (resp.status !== 200) return;
          const what = (resp.headers.get("X-Refresh") || "").split(",");
          announce(
            what.indexOf("game") >= 0 ? Number(resp.headers.get("X-Game-Version")) : NaN,
            what.indexOf("chat") >= 0 ? Number(resp.headers.get("X-Chat-Seq")) : NaN
          );
        })
        .catch(function () { /* offline for a moment: try again later */ })
        .finally(function () {
          converge();  // the safety net: a page still behind, for whatever reason, catches up
          if (stream) stream.retry();
          schedule();
        });
    }

    // An event names what changed (game, version, chat count): an announcement, as the poll's.
    function onEvent(data) {
      if (data.kind === "turns") { showYourTurn(String(data.your_turn)); return; }
      if (data.version === undefined) return;
      announce(Number(data.version), Number(data.chat));
    }

    // What the page shows, for the poll and the stream (which sends at once what is newer).
    function streamParams() {
      const params = new URLSearchParams();
      params.set("v", String(shownVersion()));
      const chat = shownChat();
      if (chat !== null) params.set("c", String(chat));
      // A tab out of sight is not someone watching: their "your turn" e-mail still goes.
      if (document.hidden) params.set("h", "1");
      const token = new URLSearchParams(window.location.search).get("token");
      if (token) params.set("t", token);
      // The page's signed key: the check answers without the session (games/live.py).
      if (live.dataset.pollKey) params.set("k", live.dataset.pollKey);
      return params.toString();
    }

    stream = openStream(live.dataset.streamUrl, streamParams, onEvent, schedule);

    document.addEventListener("visibilitychange", function () {
      if (stopped) return;
      if (stream && stream.healthy()) { stream.reopen(); return; }
      if (!document.hidden) tick();
    });
    schedule();
  }

  // Any other page: the site frame's stream (a logged-in player's) keeps "Your turn · N"; on
  // My games, any change of the player's games redraws the lists (#my-games), and the lobby
  // asks for its lists' changes too (lobby=1) and redraws them (#lobby-lists). Without a
  // healthy stream (none configured, refused, a visitor), those lists are redrawn every
  // FRAME_POLL_MS while the tab is in view: slower, never stuck.
  const FRAME_POLL_MS = 30000;
  function startFrame(badge) {
    const lobby = document.getElementById("lobby-lists");
    const lists = ["#my-games", "#lobby-lists"].filter(function (s) { return document.querySelector(s); });
    let busy = null;
    let heard = false;
    function redraw(selector) {
      if (!window.htmx || !document.querySelector(selector)) return;
      const previous = busy || Promise.resolve();
      busy = previous.then(function () {
        return htmx.ajax("GET", window.location.pathname + window.location.search,
          { target: selector, select: selector, swap: "outerHTML ignoreTitle:true" });
      }).catch(function () {});
    }
    const url = badge && badge.dataset.streamUrl;
    const stream = url ? openStream(url, function () { return lobby ? "lobby=1" : ""; }, function (data) {
      if (data.kind === "turns") {
        showYourTurn(String(data.your_turn));
        // The count the stream sends as it first opens is the one the page was drawn with.
        if (heard) redraw("#my-games");
        heard = true;
      }
      if (data.kind === "lobby") redraw("#lobby-lists");
    }, function () {}) : null;
    if (!lists.length) return;
    setInterval(function () {
      if (document.hidden) return;
      if (stream && stream.healthy()) return;
      if (stream) stream.retry();
      lists.forEach(redraw);
    }, FRAME_POLL_MS);
  }

  // Before any htmx swap (a live fetch, a move's answer, a tapped card, a chat message):
  // - A refused move (400/403/409) comes back as the fragment with the error in words: htmx
  //   does not swap 4xx responses by default, so swap it when it replaces its target.
  // - keepNewest: #game and #chat-log never go back. An answer older than what the part shows
  //   (a move's answer landing after the fragment that already shows the bot's reply; a fetch
  //   for version N after one for N+1) is not swapped in, nor its "Your turn" count taken. An
  //   answer whose part was replaced while it was on its way goes to the part as it is now
  //   (htmx would throw on the detached one and the request would never settle).
  function swapRules(event) {
    const detail = event.detail;
    let target = detail.target;
    if (!target || !target.id) return;
    if (VERSIONED[target.id] && !document.contains(target)) {
      const now = document.getElementById(target.id);
      if (!now) { detail.shouldSwap = false; return; }
      detail.target = target = now;
    }
    const status = detail.xhr.status;
    const body = detail.serverResponse || "";
    if (status >= 400 && status < 500 && body.indexOf('id="' + target.id + '"') >= 0) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    if (!VERSIONED[target.id]) return;
    const incoming = numberIn(body, target.id);
    if (incoming !== null && incoming < Number(target.getAttribute(VERSIONED[target.id]))) {
      detail.shouldSwap = false;
      detail.xhr.geartableStale = true;
    }
  }
  document.addEventListener("htmx:beforeSwap", swapRules);
  // An event on a part no longer in the page does not reach the document: the rules listen on
  // each versioned part that a request targets, too, for that case only.
  function onDetachedSwap(event) {
    if (!document.contains(event.currentTarget)) swapRules(event);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    const target = event.detail.target;
    if (!target || !VERSIONED[target.id] || target.geartableRules) return;
    target.geartableRules = true;
    target.addEventListener("htmx:beforeSwap", onDetachedSwap);
  });

  // Keyboard play: after #game is swapped, the keyboard goes to the control the server marked
  // (data-autofocus: the first destination, then Play, then the hand again) instead of falling
  // to <body>. Only when the player was on the game: a live update must never pull the focus
  // away from the chat box, nor scroll the page of someone reading.
  let focusAfterSwap = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "game" || !event.detail.shouldSwap) return;
    const source = event.target;  // the link or form that asked, or #game itself for the poll
    const byPlayer = source !== target && target.contains(source);
    const active = document.activeElement;
    const onGame = active && active !== document.body && target.contains(active);
    focusAfterSwap = byPlayer || onGame ? { scroll: byPlayer } : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!focusAfterSwap) return;
    const scroll = focusAfterSwap.scroll;
    focusAfterSwap = null;
    const game = document.getElementById("game");
    const next = game && game.querySelector("[data-autofocus]");
    if (next) next.focus({ preventScroll: !scroll });
  });

  // Links that act as buttons (a card in the hand, a destination) answer Space as buttons do.
  document.addEventListener("keydown", function (event) {
    const el = event.target;
    if (event.key !== " " || !el.matches || !el.matches("a[role=button]")) return;
    event.preventDefault();
    el.click();
  });

  // After a chat message is sent, empty the box (only on success).
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = event.target;
    if (form && form.matches && form.matches("form[data-reset-on-success]") && event.detail.successful) {
      form.reset();
    }
  });

  // Out of Gears, advanced game (O17): a player's two robots share one set of Action cards, so
  // an action card picked for one robot is disabled for the other. A card stays enabled while
  // it is checked (a refused program re-rendered with the same card twice), so it can be changed.
  function syncActionCards(root) {
    (root || document).querySelectorAll("form.program-form").forEach(function (form) {
      const sets = Array.prototype.slice.call(form.querySelectorAll("fieldset.program"));
      if (sets.length < 2) return;
      sets.forEach(function (fieldset) {
        fieldset.querySelectorAll('input[type=radio][name$="-action"]').forEach(function (input) {
          let takenBy = "";
          sets.forEach(function (other) {
            if (other === fieldset) return;
            const picked = other.querySelector('input[type=radio][name$="-action"]:checked');
            if (picked && picked.value === input.value) takenBy = other.dataset.robotName || "";
          });
          input.disabled = Boolean(takenBy) && !input.checked;
          const card = input.nextElementSibling;
          if (card) {
            if (input.disabled) card.dataset.taken = "for " + takenBy;
            else delete card.dataset.taken;
          }
        });
      });
    });
  }

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (input && input.matches && input.matches('form.program-form input[name$="-action"]')) {
      syncActionCards(input.form.parentNode);
    }
  });
  document.addEventListener("htmx:afterSwap", function () { syncActionCards(document); });

  // The navigation's "Your turn · N": the count comes with the live-update check and with every
  // htmx answer (the X-Your-Turn header), and with the stream's "turns" events, so it changes
  // without a reload. The tab says it too (issue 25.3): "(N) Your turn — " before the page's
  // title and a badge drawn on the favicon; and, if the player chose it in their profile
  // (data-sound-url), a chime when the count grows, never when a page opens.
  let shownTurns = null;  // the count the tab shows; null until the page's own is read
  function showYourTurn(count) {
    if (count === null || count === undefined || count === "") return;
    const badge = document.getElementById("nav-your-turn");
    if (!badge) return;
    const n = parseInt(count, 10);
    if (isNaN(n)) return;
    badge.textContent = interpolate(gettext("Your turn \u00b7 %(count)s"), { count: n }, true);
    badge.hidden = n === 0;
    const before = shownTurns;
    if (before === n) return;
    shownTurns = n;
    tellTheTab(n);
    if (before !== null && n > before) chime(badge);
  }

  const plainTitle = document.title;
  function tellTheTab(n) {
    document.title = n > 0
      ? interpolate(gettext("(%(count)s) Your turn \u2014 %(title)s"), { count: n, title: plainTitle }, true)
      : plainTitle;
    const link = document.querySelector('link[rel="icon"]');
    if (!link) return;
    if (!link.dataset.plainHref) {
      link.dataset.plainHref = link.getAttribute("href");
      link.dataset.plainType = link.getAttribute("type") || "";
    }
    if (n <= 0) {
      link.setAttribute("type", link.dataset.plainType);
      link.setAttribute("href", link.dataset.plainHref);
      delete link.dataset.badge;
      return;
    }
    // The site's icon with a red dot and the count, drawn on a canvas: a data: URL, which the
    // Content-Security-Policy's img-src allows (no script is inlined).
    const icon = new Image();
    icon.onload = function () {
      if (shownTurns !== n) return;  // a newer count is being drawn
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 32;
      const ctx = canvas.getContext("2d");
      ctx.drawImage(icon, 0, 0, 32, 32);
      ctx.beginPath();
      ctx.arc(22, 10, 10, 0, 2 * Math.PI);
      ctx.fillStyle = "#d1242f";
      ctx.fill();
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold 14px sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(n > 9 ? "9+" : String(n), 22, 11);
      link.setAttribute("type", "image/png");
      link.setAttribute("href", canvas.toDataURL("image/png"));
      link.dataset.badge = String(n);
    };
    icon.src = link.dataset.plainHref;
  }

  function chime(badge) {
    const url = badge.dataset.soundUrl;
    if (!url) return;
    badge.dataset.chimes = String(Number(badge.dataset.chimes || 0) + 1);
    try {
      const played = new Audio(url).play();
      // A browser may refuse sound before the player has touched the page: that is all.
      if (played && played.catch) played.catch(function () {});
    } catch (e) { /* no audio here */ }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    // An answer too old to be shown (keepNewest) has an old count too.
    if (xhr && !xhr.geartableStale) showYourTurn(xhr.getResponseHeader("X-Your-Turn"));
  });

  // The lobby's "new game" form: only the chosen game's own settings, and only the numbers of
  // players it allows (data-ranges, from the server, which checks them again). A hidden
  // fieldset is disabled too, so its values are not sent.
  function newGameForm(form) {
    const kind = form.elements.namedItem("kind");
    const seats = form.elements.namedItem("seat_count");
    const bots = form.elements.namedItem("bots");
    const advanced = form.elements.namedItem("advanced");
    if (!kind || !seats) return;
    const ranges = JSON.parse(seats.dataset.ranges || "{}");

    function limit(select, low, high) {
      if (!select) return;
      Array.prototype.forEach.call(select.options, function (option) {
        const n = Number(option.value);
        option.disabled = option.hidden = n < low || n > high;
      });
      const value = Number(select.value);
      if (value < low || value > high) select.value = String(Math.min(Math.max(value, low), high));
    }

    function update() {
      form.querySelectorAll("fieldset[data-kind]").forEach(function (fieldset) {
        const mine = fieldset.dataset.kind === kind.value;
        fieldset.hidden = !mine;
        fieldset.disabled = !mine;
      });
      const isAdvanced = kind.value === "outofgears" && advanced && advanced.checked;
      const range = ranges[isAdvanced ? "advanced" : kind.value] || [2, 8];
      limit(seats, range[0], range[1]);
      limit(bots, 0, Number(seats.value) - 1);
    }

    [kind, seats, advanced].forEach(function (el) { if (el) el.addEventListener("change", update); });
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    syncActionCards(document);
    const frame = document.getElementById("nav-your-turn");
    if (frame) {  // the count the page was drawn with: shown in the tab, no chime
      const drawn = frame.hidden ? "0" : (frame.textContent.match(/\d+/) || ["0"])[0];
      showYourTurn(drawn);
    }
    const live = document.getElementById("live");
    if (live) startLive(live);
    const badge = document.getElementById("nav-your-turn");
    if (!live) startFrame(badge);
    const newGame = document.getElementById("new-game");
    if (newGame) newGameForm(newGame);
  });
})();

// == issue 27.3: the next game ==
// "N" follows the page's "Next game waiting for you" link (drawn only when another game waits),
// never while the player types (a text box, a select, the notes) or holds a modifier.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat) return;
    if (event.key !== "n" && event.key !== "N") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const el = event.target;
    if (el && el.closest && el.closest("input, textarea, select, [contenteditable]")) return;
    const link = document.querySelector("a[data-next-game]");
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();

/* == issue 27.7: the time zone guessed at sign-up == */
// The sign-up form's time zone (data-guess-time-zone, only on a fresh form) is set to the
// browser's own when the list has it; the server checks it against the list like any choice.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const select = document.querySelector("select[data-guess-time-zone]");
    if (!select || !window.Intl || !Intl.DateTimeFormat) return;
    let zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (Array.prototype.some.call(select.options, function (o) { return o.value === zone; })) {
      select.value = zone;
    }
  });
})();

// == issue 27.6 and 27.9: the replay's keys and autoplay; a resolution's story step by step ==
(function () {
  "use strict";
  const gettext = window.gettext || function (text) { return text; };  // as at the top

  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  function stillness() { return Boolean(reduced && reduced.matches); }

  // --- the replay (27.6): ← → Home End follow the bar's links (htmx swaps #replay and pushes
  // the step's URL); Play steps on every AUTOPLAY_MS until the end or Pause. With reduced
  // motion the steps still come, only without their fade (site.css).
  const AUTOPLAY_MS = 1200;
  let playing = false;
  let timer = null;

  function replayBox() { return document.getElementById("replay"); }

  function stepLink(box, n) {
    return box.querySelector('.jumps a[data-step="' + n + '"]');
  }

  function go(box, n) {
    const link = stepLink(box, n);
    if (!link) return false;
    link.click();
    return true;
  }

  function showPlayState(box) {
    const button = box.querySelector("button.autoplay");
    if (!button) return;
    button.hidden = false;
    button.textContent = playing ? gettext("Pause") : gettext("Play");
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    const help = box.querySelector(".keys-help");
    if (help) help.hidden = false;
  }

  function scheduleNext() {
    clearTimeout(timer);
    if (!playing) return;
    timer = setTimeout(function () {
      const box = replayBox();
      if (!box || !playing) return;
      const step = Number(box.dataset.step);
      if (step >= Number(box.dataset.steps) || !stepLink(box, step + 1)) {
        playing = false;
        showPlayState(box);
        return;
      }
      // Autoplay walks many steps: the address follows without a Back entry for each one.
      const link = stepLink(box, step + 1);
      htmx.ajax("GET", link.getAttribute("href"), { target: "#replay", swap: "outerHTML" }).then(function () {
        history.replaceState(history.state, "", link.href);
      });
    }, AUTOPLAY_MS);
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#replay button.autoplay");
    if (!button) return;
    const box = replayBox();
    playing = !playing;
    // Play at the end starts again from the deal.
    if (playing && Number(box.dataset.step) >= Number(box.dataset.steps)) go(box, 0);
    showPlayState(box);
    scheduleNext();
  });

  const KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: "start", End: "end" };
  document.addEventListener("keydown", function (event) {
    const box = replayBox();
    if (!box || !(event.key in KEYS) || event.altKey || event.ctrlKey || event.metaKey) return;
    const el = event.target;
    if (el && el.closest && el.closest("input, textarea, select, [contenteditable]")) return;
    const step = Number(box.dataset.step);
    const want = KEYS[event.key];
    const n = want === "start" ? 0 : want === "end" ? Number(box.dataset.steps) : step + want;
    if (n === step) return;
    if (go(box, n)) {
      event.preventDefault();
      playing = false;
      clearTimeout(timer);
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || event.detail.target.id !== "replay") return;
    const box = replayBox();
    if (!box) return;
    showPlayState(box);
    // The keyboard stays on the control it was on (the swap replaced it).
    const key = event.detail.requestConfig && event.detail.requestConfig.elt &&
      event.detail.requestConfig.elt.dataset ? event.detail.requestConfig.elt.dataset.key : "";
    const active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      const again = key ? box.querySelector('.jumps a[data-key="' + key + '"]') : null;
      (again || box.querySelector("button.autoplay")).focus({ preventScroll: true });
    }
    scheduleNext();
  });

  // --- an Out of Gears resolution (27.9): the story's steps appear one after another when a
  // new turn's story arrives (a live swap, or a page that opens on a story not yet seen). The
  // lines are in the page already (without JavaScript, all show); with reduced motion, at once.
  const STEP_MS = 700;
  let storyTurn = null;
  // The story being played: its turn, the next line to show, its timer. A swap of the same
  // turn's story while it plays (the live check's fragment landing after a move's answer)
  // carries the play on in the new list, from where it was, instead of ending it.
  let storyPlay = null;

  function playStory(list, from) {
    const lines = Array.prototype.slice.call(list.querySelectorAll("li"));
    if (stillness() || lines.length < 2) return;
    list.classList.add("playing");
    lines.forEach(function (li, i) {
      if (i >= from) li.classList.add("step-waiting");
      else if (i > 0) li.classList.add("step-shown");
    });
    const play = { list: list, turn: Number(list.dataset.turn || 0), next: from, tick: null };
    storyPlay = play;
    play.tick = setInterval(function () {
      if (!document.contains(list)) {  // swapped out: a new list of the same turn goes on
        clearInterval(play.tick);
        return;
      }
      if (play.next >= lines.length) {
        clearInterval(play.tick);
        list.classList.remove("playing");
        list.dataset.played = "1";
        if (storyPlay === play) storyPlay = null;
        return;
      }
      lines[play.next].classList.remove("step-waiting");
      lines[play.next].classList.add("step-shown");
      play.next += 1;
    }, STEP_MS);
  }

  function checkStory(onLoad) {
    const list = document.querySelector("#game ol.steps");
    if (!list) return;
    const turn = Number(list.dataset.turn || 0);  // no story yet: turn 0
    const fresh = onLoad ? list.dataset.new === "1" : storyTurn !== null && turn > storyTurn;
    storyTurn = turn;
    if (document.getElementById("replay")) return;
    if (fresh) {
      if (storyPlay) clearInterval(storyPlay.tick);
      playStory(list, 1);
    } else if (storyPlay && storyPlay.turn === turn && !document.contains(storyPlay.list)) {
      clearInterval(storyPlay.tick);
      playStory(list, storyPlay.next);
    }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "game") checkStory(false);
  });
  document.addEventListener("DOMContentLoaded", function () {
    checkStory(true);
    const box = replayBox();
    if (box && window.htmx) showPlayState(box);
  });
})();

// == issue 27.10: the rules' sections ==
// The rules are collapsed sections (<details>). A link to a rule (#G13) or a section (#a-turn),
// followed on the page or from another one, opens the sections that hold it before the browser
// scrolls there: Chromium opens one for a rule inside it, not for the section itself, and not
// every browser does either. Without this script a section opens with a tap on its title.
(function () {
  "use strict";

  function openSectionsOf(id) {
    const target = id && document.getElementById(id);
    if (!target) return false;
    let opened = false;
    for (let d = target.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      if (!d.open) { d.open = true; opened = true; }
    }
    return opened;
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (link) openSectionsOf(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  document.addEventListener("DOMContentLoaded", function () {
    const id = decodeURIComponent(location.hash.slice(1));
    if (openSectionsOf(id)) document.getElementById(id).scrollIntoView();
  });
})();
