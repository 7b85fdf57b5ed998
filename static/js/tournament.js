// The event page: a socket says "changed" (re-read the live part, at most once a second)
// (the registration box and the organizer's controls are part of it, so they follow a start on schedule)
// or "round" (a new round: a seated player goes straight to his table).
(function () {
  "use strict";
  var root, live, pending = false, again = false, last = 0;

  function refresh() {
    // a change that arrives while a read is under way may be newer than what that read sees: read once more after it
    if (pending) { again = true; return; }
    pending = true;
    var wait = Math.max(0, 1000 - (Date.now() - last));
    setTimeout(function () {
      last = Date.now();
      fetch(root.dataset.live, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) swap(html); })
        .finally(function () {
          pending = false;
          if (again) { again = false; refresh(); }
        });
    }, wait);
  }

  // the organizer's panel is swapped only when its key says it changed: what he types in it stays, and it stays
  // in place (a node taken out of the page and put back loses the focus, and his next keys with it); when it did
  // change, what he had typed in a field the new panel still has goes with it, the focus too (a result half entered
  // while another table finished, an announcement while a player dropped)
  function swap(html) {
    var old = document.getElementById("organizer-panel");
    var next = document.createElement("div");
    next.innerHTML = html;
    var fresh = next.querySelector("#organizer-panel");
    var nodes = Array.prototype.slice.call(next.childNodes);
    if (old && fresh && old.dataset.key === fresh.dataset.key && old.parentNode === live && fresh.parentNode === next) {
      var at = nodes.indexOf(fresh);
      while (live.firstChild !== old) live.removeChild(live.firstChild);
      while (old.nextSibling) live.removeChild(old.nextSibling);
      nodes.slice(0, at).forEach(function (node) { live.insertBefore(node, old); });
      nodes.slice(at + 1).forEach(function (node) { live.appendChild(node); });
    } else {
      var focused = old && old.contains(document.activeElement) ? document.activeElement.id : "";
      if (old && fresh) carryTyped(old, fresh);
      live.replaceChildren.apply(live, nodes);
      var again = focused && document.getElementById(focused);
      if (again) again.focus();
    }
    localTimes();
  }

  function carryTyped(from, to) {
    from.querySelectorAll("input[id], textarea[id]").forEach(function (el) {
      if (el.type === "hidden" || el.type === "checkbox" || el.type === "radio" || el.value === el.defaultValue) return;
      var same = to.querySelector("#" + CSS.escape(el.id));
      if (same && same.tagName === el.tagName && same.type === el.type) same.value = el.value;
    });
  }

  // times are sent in UTC; each reader sees them in his own time zone
  function localTimes() {
    var lang = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    });
  }

  function connect(delay) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + root.dataset.socket);
    socket.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      if (msg.type === "round" && msg.goto) { location.href = msg.goto; return; }
      refresh();
    };
    socket.onopen = function () { root.dataset.connected = "1"; delay = 1000; refresh(); };
    socket.onclose = function (e) {
      root.dataset.connected = "";
      if (e.code !== 4403) setTimeout(function () { connect(Math.min(delay * 2, 15000)); }, delay);
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    localTimes();
    root = document.getElementById("event");
    live = document.getElementById("event-live");
    if (root && live) connect(1000);
  });
})();
