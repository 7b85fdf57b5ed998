/* The presence socket of this tab: keeps the player online, brings notifications and "your turn".
 * One WebSocket per tab; it reconnects with back-off and stops for good when the server
 * closes it for a sign-out (4401) or a ban (4403). */
(function () {
  "use strict";
  var body = document.body;
  var path = body.dataset.presence;
  if (!path || !window.WebSocket) return;
  var toasts = document.getElementById("toasts");
  var strings = toasts ? toasts.dataset : {};
  var baseTitle = document.title;
  // notifications already shown as a toast in this browser tab session (a page load must not repeat them)
  var SEEN_KEY = "cards.seen";
  var seen = {};
  try { JSON.parse(sessionStorage.getItem(SEEN_KEY) || "[]").forEach(function (id) { seen[id] = true; }); } catch (e) { /* fresh */ }
  function remember(id) {
    seen[id] = true;
    var ids = Object.keys(seen).slice(-100);
    try { sessionStorage.setItem(SEEN_KEY, JSON.stringify(ids)); } catch (e) { /* storage full or off */ }
  }
  var sock = null, beat = null, retry = 1000, audio = null;
  var SOUND_KEY = "cards.sound";

  function soundOn() { return localStorage.getItem(SOUND_KEY) !== "off"; }

  function showSound() {
    var button = document.getElementById("sound-toggle");
    if (!button) return;
    var on = soundOn();
    // both icons are in the button; the stylesheet shows the one aria-pressed names
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.title = on ? strings.soundOn : strings.soundOff;
  }

  function beep() {
    // browsers refuse audio before the person has touched the page; then stay quiet
    if (!soundOn() || !(navigator.userActivation && navigator.userActivation.hasBeenActive)) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var now = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start(now);
      osc.stop(now + 0.4);
    } catch (e) { /* no audio device: the title and the toast still tell */ }
  }

  function setCount(n) {
    var bell = document.getElementById("bell"), count = document.getElementById("bell-count");
    if (!bell || !count) return;
    count.textContent = n > 0 ? String(n) : "";
    bell.classList.toggle("unread", n > 0);
  }

  //: how long a "your turn" toast stays before it fades (the title and the table still tell)
  var TURN_TOAST_MS = 8000;

  function toast(text, url, kind, key) {
    if (!toasts) return null;
    // one toast per key (a table's turns): the newest replaces the one before
    if (key) toasts.querySelectorAll(".toast").forEach(function (old) { if (old.dataset.key === key) old.remove(); });
    var box = document.createElement("div");
    box.className = "toast " + (kind || "");
    if (key) box.dataset.key = key;
    var p = document.createElement("span");
    p.textContent = text;
    box.appendChild(p);
    if (url) {
      var a = document.createElement("a");
      a.href = url;
      a.className = "toast-open";
      a.textContent = strings.open || "Open";
      box.appendChild(a);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "link toast-close";
    close.textContent = "×";
    close.setAttribute("aria-label", strings.close || "Close");
    close.addEventListener("click", function () { box.remove(); });
    box.appendChild(close);
    toasts.appendChild(box);
    while (toasts.children.length > 5) toasts.firstChild.remove();
    return box;
  }

  // a toast that fades away on its own, unless the pointer rests on it
  function fadeLater(box, ms) {
    var timer = null;
    function arm() {
      timer = setTimeout(function () {
        box.classList.add("fading");
        setTimeout(function () { box.remove(); }, 600);
      }, ms);
    }
    box.addEventListener("mouseenter", function () { clearTimeout(timer); box.classList.remove("fading"); });
    box.addEventListener("mouseleave", arm);
    arm();
  }

  function flagTitle() {
    if (document.title.indexOf("● ") !== 0) document.title = "● " + (strings.yourTurn || "Your turn") + " · " + baseTitle;
  }
  function clearTitle() { document.title = baseTitle; }
  window.addEventListener("focus", clearTitle);
  document.addEventListener("click", clearTitle);

  function atTable() { return /^\/tables\/\d+\/$/.test(location.pathname); }

  function notification(note) {
    if (seen[note.id]) return;
    remember(note.id);
    toast(note.text, note.url, "note-" + note.kind);
    // an accepted challenge takes the challenger to the new table, unless he is playing elsewhere
    if (note.kind === "challenge_answer" && /^\/(tables|play)\/\d+\/$/.test(note.url) && !atTable()) {
      location.assign(note.url);
    }
    // a tournament round started: the server flags the call to the player's table; any page goes there
    if (note.go && note.url && location.pathname !== note.url) location.assign(note.url);
  }

  function handle(msg) {
    if (msg.type === "hello") {
      setCount(msg.unread);
      (msg.notifications || []).slice().reverse().forEach(function (n) {
        // an accepted challenge seen only after a reconnect is a toast, not a jump to the table
        // (so is a tournament's call to a table: the round may be long over)
        if (n.kind === "challenge_answer" || n.go) { if (!seen[n.id]) { remember(n.id); toast(n.text, n.url, "note-" + n.kind); } }
        else notification(n);
      });
      return msg.heartbeat;
    }
    if (msg.type === "notification") { if (msg.unread !== undefined) setCount(msg.unread); notification(msg); }
    else if (msg.type === "unread") setCount(msg.unread);
    else if (msg.type === "turn" && location.pathname !== msg.url) {
      // one beep for a run of turns: none while a "your turn" toast is still on screen
      var quiet = !!(toasts && toasts.querySelector(".toast.turn:not(.fading)"));
      var box = toast((strings.yourTurnAt || "Your turn at %(game)s table #%(table)s")
        .replace("%(game)s", msg.game).replace("%(table)s", msg.table), msg.url, "turn", "turn-" + msg.table);
      if (box) fadeLater(box, TURN_TOAST_MS);
      flagTitle();
      if (!quiet) beep();
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    sock = new WebSocket(scheme + location.host + path + "?at=" + encodeURIComponent(location.pathname));
    sock.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      var heartbeat = handle(msg);
      if (heartbeat) {
        retry = 1000;
        body.classList.add("presence-open");
        clearInterval(beat);
        beat = setInterval(function () {
          if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: "ping" }));
        }, heartbeat * 1000);
      }
    };
    sock.onclose = function (event) {
      clearInterval(beat);
      body.classList.remove("presence-open");
      if (event.code === 4401 || event.code === 4403) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  var soundButton = document.getElementById("sound-toggle");
  if (soundButton) {
    soundButton.addEventListener("click", function () {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      showSound();
    });
  }
  showSound();
  connect();
})();
