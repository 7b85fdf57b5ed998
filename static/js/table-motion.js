// Sound and motion on the live table, so a player notices what just happened without reading the log.
//
// Motion: before the socket swaps the fragments in, every face-up card's place is noted by its code;
// afterwards a card that moved (from a hand to the table) glides from its old place to its new one,
// and a card that just appeared slides in from the seat of the player who was to move. Nothing moves
// when the reader prefers reduced motion (the stylesheet stills the CSS transitions too).
//
// Sound: a chime when it becomes your turn, a flick when cards land, a sweep when the table is
// cleared, a short tune when the game ends; made with the Web Audio API, no files. The switch is
// remembered in localStorage under the key the top bar's switch uses, and the two stay in step.
// Browsers refuse audio before the person has touched the page, so until then the table stays quiet.
(function () {
  "use strict";
  var SOUND_KEY = "cards.sound";
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  var before = null;
  var audio = null, noise = null;

  function table() { return document.querySelector(".live-table"); }

  // -- sound ---------------------------------------------------------------------------------------
  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch (e) { return true; }
  }

  function showSound() {
    var on = soundOn();
    document.querySelectorAll(".table-sound").forEach(function (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? button.dataset.on : button.dataset.off;
    });
    // the top bar's own switch: both its icons are in it, the stylesheet shows the one aria-pressed names
    var bar = document.getElementById("sound-toggle");
    if (bar) bar.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function context() {
    if (!(navigator.userActivation && navigator.userActivation.hasBeenActive)) return null;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    } catch (e) { return null; }
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  function tone(ctx, freq, start, length, volume, type) {
    var osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = type || "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(volume, start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }

  function rustle(ctx, start, length, from, to, volume) {
    if (!noise) {
      noise = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.4), ctx.sampleRate);
      var data = noise.getChannelData(0);
      for (var i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    }
    var src = ctx.createBufferSource(), filter = ctx.createBiquadFilter(), gain = ctx.createGain();
    src.buffer = noise;
    filter.type = "bandpass";
    filter.Q.value = 1.2;
    filter.frequency.setValueAtTime(from, start);
    filter.frequency.exponentialRampToValueAtTime(to, start + length);
    gain.gain.setValueAtTime(volume, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    src.connect(filter).connect(gain).connect(ctx.destination);
    src.start(start);
    src.stop(start + length + 0.02);
  }

  var SOUNDS = {
    turn: function (ctx, t) { tone(ctx, 660, t, 0.18, 0.18); tone(ctx, 880, t + 0.14, 0.3, 0.18); },
    card: function (ctx, t) { rustle(ctx, t, 0.07, 3200, 1800, 0.5); },
    sweep: function (ctx, t) { rustle(ctx, t, 0.25, 900, 2600, 0.35); },
    over: function (ctx, t) { tone(ctx, 523, t, 0.2, 0.15); tone(ctx, 659, t + 0.16, 0.2, 0.15); tone(ctx, 784, t + 0.32, 0.4, 0.15); }
  };

  function play(name) {
    if (!soundOn()) return;
    var ctx = context();
    if (!ctx) return;
    try { SOUNDS[name](ctx, ctx.currentTime + 0.01); } catch (e) { return; }
    // what was last heard, for the page's own checks
    var live = table();
    if (live) live.dataset.sound = name + " " + (Number((live.dataset.sound || "").split(" ")[1] || 0) + 1);
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest(".table-sound");
    if (button) {
      try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* storage off */ }
    }
    // the top bar's switch stores the choice itself; either way both switches show it
    if (button || (evt.target.closest && evt.target.closest("#sound-toggle"))) showSound();
  });
  window.addEventListener("storage", function (evt) { if (evt.key === SOUND_KEY) showSound(); });

  // -- what changed ----------------------------------------------------------------------------------
  function snapshot() {
    var live = table();
    var status = document.getElementById("table-status");
    var places = {}, twice = {};
    if (live) {
      live.querySelectorAll(".pcard[data-card]").forEach(function (el) {
        var code = el.dataset.card;
        if (places[code]) twice[code] = true;
        places[code] = el.getBoundingClientRect();
      });
    }
    var mover = document.querySelector("#table-seats .seat.turn");
    return {
      places: places,
      twice: twice,
      mover: mover ? mover.getBoundingClientRect() : null,
      board: document.querySelectorAll("#table-board .pcard").length,
      mine: !!document.querySelector('#table-play[data-my-turn="1"]'),
      over: !!(status && status.classList.contains("is-over"))
    };
  }

  function motionOn() { return !reduced.matches && typeof Element.prototype.animate === "function"; }

  function glide() {
    var live = table();
    if (!live || !motionOn()) { if (live) live.dataset.motion = "off"; return; }
    live.dataset.motion = "on";
    var moved = 0, seen = {};
    live.querySelectorAll(".pcard[data-card]").forEach(function (el) {
      var code = el.dataset.card;
      if (before.twice[code] || seen[code]) return;
      seen[code] = true;
      var now = el.getBoundingClientRect(), then = before.places[code];
      var frames = null;
      if (then) {
        var dx = then.left - now.left, dy = then.top - now.top;
        if (Math.abs(dx) > 2 || Math.abs(dy) > 2) {
          frames = [{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }];
        }
      } else if (el.closest("#table-board")) {
        // a card no one saw before: from the seat of the player who was to move, or from just above
        var from = before.mover;
        var fx = from ? from.left + from.width / 2 - (now.left + now.width / 2) : 0;
        var fy = from ? from.top + from.height / 2 - (now.top + now.height / 2) : -24;
        frames = [{ transform: "translate(" + fx + "px," + fy + "px) scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }];
      }
      if (frames) {
        el.animate(frames, { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
        moved++;
      }
    });
    live.dataset.animated = String(Number(live.dataset.animated || 0) + moved);
  }

  function listen(after) {
    if (after.over && !before.over) play("over");
    else if (after.mine && !before.mine) play("turn");
    else if (after.board > before.board) play("card");
    else if (after.board < before.board) play("sweep");
  }

  document.addEventListener("htmx:wsBeforeMessage", function () { before = snapshot(); });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!before) return;
    var after = snapshot();
    glide();
    listen(after);
    before = null;
  });

  function start() {
    var live = table();
    if (live) {
      live.dataset.motion = motionOn() ? "on" : "off";
      live.dataset.animated = live.dataset.animated || "0";
    }
    showSound();
  }
  if (reduced.addEventListener) reduced.addEventListener("change", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
