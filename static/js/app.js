// The installable app (issue 26): the service worker, the "Notify me on this device" switch on
// the profile, the one-time offer after the player's first move, and the app's badge. Push is
// offered only where the page carries the site's key (data-push-key: push is on, logged in).
(function () {
  "use strict";

  // The words in the page's language (docs/i18n.md): the djangojs catalog, a static file the
  // frame loads before this script (templates/_js_catalog.html); the English as written here
  // when it is not loaded.
  const gettext = window.gettext || function (text) { return text; };
  const interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (_, name) { return String(values[name]); });
  };

  const ASKED = "geartable-push-asked"; // localStorage: the offer after a move was answered
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (err) {
      return "";
    }
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(data),
    }).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (body) {
        if (!resp.ok) throw new Error(body.error || interpolate(gettext("The server said no (%(status)s)."), { status: resp.status }, true));
        return body;
      });
    });
  }

  function keyBytes(b64url) {
    const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64url.length + 3) % 4);
    const raw = atob(b64);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function currentSubscription() {
    return navigator.serviceWorker.ready.then(function (reg) { return reg.pushManager.getSubscription(); });
  }

  // Ask the browser (only ever after the player chose to), subscribe, and tell the server.
  function subscribe() {
    const body = document.body.dataset;
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error(gettext("Notifications are blocked for this site: allow them in the browser's settings."));
      }
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      return reg.pushManager.getSubscription().then(function (sub) {
        return sub || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(body.pushKey) });
      });
    }).then(function (sub) {
      return post(body.pushSubscribe, sub.toJSON());
    });
  }

  function unsubscribe() {
    return currentSubscription().then(function (sub) {
      if (!sub) return null;
      return post(document.body.dataset.pushUnsubscribe, { endpoint: sub.endpoint }).then(function () {
        return sub.unsubscribe();
      });
    });
  }

  // The profile's switch: on if this browser's subscription is one of the devices listed.
  function profileSwitch(section) {
    const box = document.getElementById("push-switch");
    const input = document.getElementById("push-this-device");
    const status = document.getElementById("push-status");
    if (!box || !input) return;
    document.getElementById("push-unsupported").hidden = true;
    box.hidden = false;
    const listed = Array.prototype.map.call(section.querySelectorAll("[data-endpoint]"), function (li) {
      return li.dataset.endpoint;
    });
    currentSubscription().then(function (sub) {
      input.checked = Boolean(sub) && Notification.permission === "granted" && listed.indexOf(sub.endpoint) >= 0;
    });
    input.addEventListener("change", function () {
      input.disabled = true;
      status.textContent = input.checked ? gettext("Asking the browser…") : gettext("Turning off…");
      const on = input.checked;
      (on ? subscribe() : unsubscribe()).then(function () {
        status.textContent = on ? gettext("This device will be notified.") : gettext("This device gets no more notifications.");
        localStorage.setItem(ASKED, "yes");
      }).catch(function (err) {
        input.checked = !on;
        status.textContent = interpolate(
          on ? gettext("Notifications could not be turned on here: %(error)s") : gettext("Notifications could not be turned off: %(error)s"),
          { error: err.message }, true);
      }).finally(function () {
        input.disabled = false;
      });
    });
  }

  // After the player's first move on this device (never on page load): one offer, once.
  function offerAfterMove() {
    if (!supported || !document.body.dataset.pushKey) return;
    if (localStorage.getItem(ASKED) || Notification.permission !== "default") return;
    if (document.getElementById("push-offer")) return;
    const offer = document.createElement("div");
    offer.id = "push-offer";
    offer.className = "flash";
    offer.setAttribute("role", "status");
    const text = document.createElement("p");
    text.className = "flash-info";
    text.textContent = gettext("Get a notification on this device when it is your turn?") + " ";
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "small";
    yes.textContent = gettext("Notify me");
    const no = document.createElement("button");
    no.type = "button";
    no.className = "secondary small";
    no.textContent = gettext("Not now");
    text.append(yes, " ", no);
    offer.append(text);
    document.body.insertBefore(offer, document.getElementById("main"));
    no.addEventListener("click", function () {
      localStorage.setItem(ASKED, "no");
      offer.remove();
    });
    yes.addEventListener("click", function () {
      localStorage.setItem(ASKED, "yes");
      subscribe().then(function () {
        text.textContent = gettext("Done: this device will be notified when it is your turn.");
      }).catch(function (err) {
        text.textContent = err.message;
      });
    });
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    const path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (event.detail.successful && /^\/games\/\d+\/move\//.test(path)) offerAfterMove();
  });

  // The app's badge follows the navigation's "Your turn · N" (filled in by geartable.js).
  function followBadge(badge) {
    if (!("setAppBadge" in navigator)) return;
    function update() {
      const n = badge.hidden ? 0 : parseInt((badge.textContent.match(/\d+/) || ["0"])[0], 10);
      (n > 0 ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(function () {});
    }
    new MutationObserver(update).observe(badge, { attributes: true, childList: true, characterData: true, subtree: true });
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const section = document.getElementById("push");
    if (section && supported && document.body.dataset.pushKey) profileSwitch(section);
    const badge = document.getElementById("nav-your-turn");
    if (badge) followBadge(badge);
  });
})();
