// The event page: a socket says "changed" (re-read the live part, at most once a second)
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
        .then(function (html) { if (html !== null) live.innerHTML = html; })
        .finally(function () {
          pending = false;
          if (again) { again = false; refresh(); }
        });
    }, wait);
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
    root = document.getElementById("event");
    live = document.getElementById("event-live");
    if (root && live) connect(1000);
  });
})();
