// The live table's small comforts on top of htmx's WebSocket extension:
// ticked cards and chosen options survive a swap (another player moved while
// you were choosing), the tab title says when it is your turn, and a dot shows
// whether the socket is connected. The server stays the only judge of moves.
(function () {
  "use strict";
  var ticked = new Set();
  var chosen = {};

  document.addEventListener("change", function (evt) {
    var el = evt.target;
    if (!el.closest || !el.closest("#table-play")) return;
    if (el.name === "cards") {
      if (el.checked) ticked.add(el.value); else ticked.delete(el.value);
      narrow();
    } else if (el.tagName === "SELECT") {
      chosen[el.name] = el.value;
    }
  });

  // the hand narrowed to the cards that can join those ticked, from the legal combinations the server sent
  // (only for a game whose engine lists them all); a card that cannot join is dimmed, never disabled
  function narrow() {
    var hand = document.querySelector("#table-play .hand[data-combinations]");
    if (!hand) return;
    var combos = JSON.parse(hand.dataset.combinations);
    var boxes = hand.querySelectorAll('input[name="cards"]');
    var picked = [];
    boxes.forEach(function (box) { if (box.checked) picked.push(box.value); });
    boxes.forEach(function (box) {
      var joins = !picked.length || box.checked || combos.some(function (combo) {
        return combo.indexOf(box.value) >= 0 && picked.every(function (code) { return combo.indexOf(code) >= 0; });
      });
      box.closest("label").classList.toggle("cannot-join", !joins);
    });
  }

  // a plain button (Done, Take, a bid) is a move of its own: the cards ticked beside it are done with,
  // while a refused composed button keeps them ticked for the player to correct
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("#table-play button[ws-send]");
    if (button && !button.classList.contains("compose")) ticked.clear();
  });

  // a phone leaves the buttons' explanations out for room; "Hints" shows them, remembered for every table
  var HINTS_KEY = "table-hints";
  function showHints(on) {
    document.body.classList.toggle("act-hints-shown", on);
    document.querySelectorAll(".table-hints").forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
  }
  try { showHints(localStorage.getItem(HINTS_KEY) === "on"); } catch (e) { /* storage off: hidden */ }
  document.addEventListener("click", function (evt) {
    if (!evt.target.closest || !evt.target.closest(".table-hints")) return;
    var on = !document.body.classList.contains("act-hints-shown");
    try { localStorage.setItem(HINTS_KEY, on ? "on" : "off"); } catch (e) { /* storage off: this page only */ }
    showHints(on);
  });

  // one move sent per position until the server answers: a double tap sent the same move twice, and the second
  // came back refused as made against an old move, a red error for a click that had worked. Any answer (the new
  // position, a refusal to correct) or a new socket lets the controls send again.
  var sentAt = null;
  var sentTimer = null;
  function sendAgain() { sentAt = null; clearTimeout(sentTimer); }
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var elt = evt.target;
    if (!elt || !elt.closest || !elt.closest("#table-play")) return;
    var move = String((evt.detail.parameters || {}).move);
    if (sentAt === move) { evt.preventDefault(); return; }
    sentAt = move;
    clearTimeout(sentTimer);
    sentTimer = setTimeout(sendAgain, 5000);  // an answer lost with its socket must not stop the controls for good
  });
  document.addEventListener("htmx:wsAfterMessage", sendAgain);
  document.addEventListener("htmx:wsOpen", sendAgain);

  function restore() {
    var play = document.getElementById("table-play");
    if (!play) return;
    var present = new Set();
    play.querySelectorAll('input[name="cards"]').forEach(function (box) {
      present.add(box.value);
      if (ticked.has(box.value)) box.checked = true;
    });
    // cards that left the hand (played, or the hand changed) are forgotten
    ticked.forEach(function (code) { if (!present.has(code)) ticked.delete(code); });
    narrow();
    play.querySelectorAll("select").forEach(function (sel) {
      var value = chosen[sel.name];
      if (value && sel.querySelector('option[value="' + CSS.escape(value) + '"]')) sel.value = value;
    });
  }

  var baseTitle = document.title;
  function announce() {
    var play = document.getElementById("table-play");
    var mine = !!(play && play.dataset.myTurn === "1");
    var live = document.querySelector(".live-table");
    var words = (live && live.dataset.yourTurn) || "Your turn";
    document.title = (mine ? "● " + words + " · " : "") + baseTitle;
  }

  function connection(open) {
    var table = document.querySelector(".live-table");
    if (!table) return;
    table.classList.toggle("ws-open", open);
    table.classList.toggle("ws-closed", !open);
  }

  // fragments rendered for the socket have no request, so no CSRF token: forms in
  // them (the away / "I'm back" form) take the one the page was served with
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var table = form.closest && form.closest(".live-table");
    if (!table || form.method.toLowerCase() !== "post") return;
    var field = form.querySelector('input[name="csrfmiddlewaretoken"]');
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "csrfmiddlewaretoken";
      form.appendChild(field);
    }
    if (!field.value) field.value = table.dataset.csrf;
  });

  // Leave / I'm back / Resign are re-sent with every move but replaced only when they change,
  // so a click never lands on a form that is being swapped out
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "table-away") return;
    var fresh = evt.detail.fragment && (evt.detail.fragment.firstElementChild || evt.detail.fragment);
    if (fresh && fresh.getAttribute && fresh.getAttribute("data-key") === target.getAttribute("data-key")) {
      evt.detail.shouldSwap = false;
    }
  });

  // leaving or resigning: the controls stop at once, before the server's answer arrives
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form.matches || !form.matches(".away-form, .resign-form")) return;
    if (form.matches(".away-form") && form.querySelector('input[name="away"][value="0"]')) return;
    var play = document.getElementById("table-play");
    if (play) {
      play.classList.add("is-left");
      play.querySelectorAll("button, input, select").forEach(function (el) { el.disabled = true; });
    }
  });

  // every player agreed to a rematch: the players' pages follow to the new table
  // (only when it starts while the page is open: a finished table opened later stays readable)
  var rematchAtLoad = null;
  document.addEventListener("DOMContentLoaded", function () { rematchAtLoad = !!document.getElementById("rematch-go"); });
  function followRematch() {
    var go = document.getElementById("rematch-go");
    if (go && rematchAtLoad === false && go.dataset.go === "1" && location.pathname !== go.pathname) location.assign(go.href);
  }

  // a move makes the previous page's messages ("You sat down.") old news
  function dropMessages() {
    document.querySelectorAll(".messages li:not(.error)").forEach(function (li) { li.remove(); });
  }

  // after a move the log gets only its new lines, newest first: keep as many as the page was drawn with
  function trimLog() {
    var list = document.getElementById("table-log-lines");
    if (!list) return;
    var keep = parseInt(list.dataset.keep, 10) || 30;
    while (list.children.length > keep) list.removeChild(list.lastElementChild);
  }

  // the keyboard: digits tick (or play) the hand's cards in order, Enter sends the ticked cards, Esc unticks,
  // and a letter clicks the button that names it (data-key, from the game's shortcuts; read where the key sits,
  // so a Russian layout's "Е" is the "T" key)
  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "checkbox");
  }
  document.addEventListener("keydown", function (evt) {
    if (evt.ctrlKey || evt.metaKey || evt.altKey || typing(evt.target)) return;
    var play = document.getElementById("table-play");
    if (!play || play.dataset.myTurn !== "1") return;
    var digit = /^Digit([0-9])$/.exec(evt.code || "") || /^([0-9])$/.exec(evt.key || "");
    var cards = play.querySelectorAll(".hand > .pick, .hand > .quick, .hand > .still");
    if (digit) {
      var n = digit[1] === "0" ? 10 : parseInt(digit[1], 10);
      var card = cards[n - 1];
      if (!card) return;
      evt.preventDefault();
      var box = card.querySelector('input[name="cards"]');
      if (box) {
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change", { bubbles: true }));
        box.focus();
      } else if (card.matches("button.quick")) {
        card.click();
      }
      return;
    }
    if (evt.key === "Escape") {
      play.querySelectorAll('input[name="cards"]:checked').forEach(function (box) {
        box.checked = false;
        box.dispatchEvent(new Event("change", { bubbles: true }));
      });
      return;
    }
    if (evt.key === "Enter" && !(evt.target && evt.target.tagName === "BUTTON")) {
      var compose = play.querySelector("button.compose");
      if (compose && play.querySelector('input[name="cards"]:checked')) { evt.preventDefault(); compose.click(); }
      return;
    }
    var letter = /^Key([A-Z])$/.exec(evt.code || "");
    if (letter && !evt.shiftKey) {
      var button = play.querySelector('button[data-key="' + letter[1] + '"]');
      if (button) { evt.preventDefault(); button.click(); }
    }
  });

  // every move said to a screen reader as one sentence in the page's language: who did what (the log's newest
  // line), then whose turn it is (the status line's own words)
  var lastSaid = null;
  function sayMove() {
    var region = document.getElementById("table-say");
    var line = document.querySelector("#table-log-lines > li");
    var status = document.getElementById("table-status");
    if (!region || !status) return;
    var key = (line ? line.value : "") + "/" + status.dataset.move;
    if (lastSaid === null) { lastSaid = key; return; }  // what the page opened with is not news
    if (key === lastSaid || !line) return;
    lastSaid = key;
    var play = document.getElementById("table-play");
    var turn = "";
    var over = status.querySelector(".status-main strong:not(.your-turn)");
    if (status.classList.contains("is-over") && over) turn = status.querySelector(".status-main").textContent;
    else if (play && play.dataset.myTurn === "1") turn = (status.querySelector(".your-turn") || {}).textContent || "";
    else turn = (status.querySelector(".waiting") || {}).textContent || "";
    var sentence = line.textContent.replace(/\s+/g, " ").trim();
    region.textContent = sentence.replace(/[.!]?$/, ".") + " " + turn.replace(/\s+/g, " ").trim().replace(/[.]?$/, ".");
  }
  document.addEventListener("DOMContentLoaded", sayMove);

  document.addEventListener("htmx:wsAfterMessage", function () { trimLog(); restore(); announce(); sayMove(); followRematch(); });
  var movedFrom = null;
  function moveOf() {
    var status = document.getElementById("table-status");
    return status ? status.dataset.move + "/" + (status.querySelector(".game-no") || {}).textContent : "";
  }
  document.addEventListener("DOMContentLoaded", function () { movedFrom = moveOf(); });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (movedFrom !== null && moveOf() !== movedFrom) { dropMessages(); movedFrom = null; }
  });
  document.addEventListener("htmx:wsOpen", function () { connection(true); });
  document.addEventListener("htmx:wsClose", function () { connection(false); });
  document.addEventListener("DOMContentLoaded", announce);
})();
