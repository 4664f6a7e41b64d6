// Geartable's own script: live updates by polling a cheap version check (slower when hidden).
// Pages work without it for reading; it only adds freshness.
(function () {
  "use strict";

  function startPolling(el) {
    if (el.dataset.polling) return;
    el.dataset.polling = "1";
    const visibleMs = Number(el.dataset.pollMs || 2000);
    const hiddenMs = Number(el.dataset.pollHiddenMs || 15000);
    let timer = null;
    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(tick, document.hidden ? hiddenMs : visibleMs);
    }
    function tick() {
      const live = document.querySelector("[data-poll-url]");
      if (!live || live !== el && !document.body.contains(el)) return;
      const url = live.dataset.pollUrl;
      fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (resp) {
          if (resp.status === 286) return; // the game is over: stop polling
          if (resp.status === 200) {
            const target = document.querySelector(live.dataset.pollTarget || "#game");
            if (target && window.htmx) {
              htmx.ajax("GET", live.dataset.refreshUrl, { target: target, swap: "outerHTML" });
            }
          }
          schedule();
        })
        .catch(schedule);
    }
    document.addEventListener("visibilitychange", function () { if (!document.hidden) tick(); });
    schedule();
  }

  function init(root) {
    (root || document).querySelectorAll("[data-poll-url]").forEach(startPolling);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
})();
