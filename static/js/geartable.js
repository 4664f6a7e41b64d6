// Geartable's own script: live updates by polling a cheap version check, slower when the tab
// is hidden. Pages work without it for reading; it only adds freshness. No eval, no inline code
// (the Content-Security-Policy allows neither).
(function () {
  "use strict";

  const VISIBLE_MS = 2000;
  const HIDDEN_MS = 15000;

  function startLive(live) {
    let timer = null;
    let stopped = false;

    function schedule() {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(tick, document.hidden ? HIDDEN_MS : VISIBLE_MS);
    }

    function refresh(selector, url) {
      const target = document.querySelector(selector);
      if (!target || !url) return Promise.resolve();
      if (!window.htmx) { window.location.reload(); return Promise.resolve(); }
      return htmx.ajax("GET", url, { target: target, swap: "outerHTML" });
    }

    function tick() {
      const game = document.getElementById("game");
      const chat = document.getElementById("chat-log");
      const params = new URLSearchParams();
      params.set("v", game ? game.dataset.version : live.dataset.version);
      if (chat) params.set("c", chat.dataset.seq);
      // A tab out of sight is not someone watching: their "your turn" e-mail still goes.
      if (document.hidden) params.set("h", "1");
      const token = new URLSearchParams(window.location.search).get("token");
      if (token) params.set("t", token);
      fetch(live.dataset.pollUrl + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (resp) {
          if (resp.status === 286) { stopped = true; return; }
          if (resp.status !== 200) return;
          const what = (resp.headers.get("X-Refresh") || "").split(",");
          if (!game && what.indexOf("game") >= 0) { window.location.reload(); return; }
          const work = [];
          if (what.indexOf("game") >= 0) work.push(refresh("#game", live.dataset.gameUrl));
          if (what.indexOf("chat") >= 0) work.push(refresh("#chat-log", live.dataset.chatUrl));
          return Promise.all(work);
        })
        .catch(function () { /* offline for a moment: try again later */ })
        .finally(schedule);
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && !stopped) tick();
    });
    schedule();
  }

  // A refused move (400/403/409) comes back as the fragment with the error in words: htmx does
  // not swap 4xx responses by default, so swap it when it replaces its target (#game, #chat-log).
  document.addEventListener("htmx:beforeSwap", function (event) {
    const status = event.detail.xhr.status;
    const target = event.detail.target;
    const body = event.detail.serverResponse || "";
    if (status >= 400 && status < 500 && target && target.id &&
        body.indexOf('id="' + target.id + '"') >= 0) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // After a chat message is sent, empty the box (only on success).
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = event.target;
    if (form && form.matches && form.matches("form[data-reset-on-success]") && event.detail.successful) {
      form.reset();
    }
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
    const live = document.getElementById("live");
    if (live) startLive(live);
    const newGame = document.getElementById("new-game");
    if (newGame) newGameForm(newGame);
  });
})();
