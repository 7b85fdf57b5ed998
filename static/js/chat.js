// Chat forms travel over the page's socket (htmx ws-send): empty the text box once
// a line is sent, and keep the newest line in sight.
(function () {
  "use strict";
  document.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target && evt.target.closest && evt.target.closest("[data-chat-form]");
    if (form) form.reset();
  });
  // the lobby chat's own socket: a class says whether it is connected
  function mark(evt, open) {
    var box = evt.detail && evt.detail.elt;
    if (box && box.id === "lobby-chat") { box.classList.toggle("ws-open", open); box.classList.toggle("ws-closed", !open); }
  }
  document.addEventListener("htmx:wsOpen", function (evt) { mark(evt, true); });
  document.addEventListener("htmx:wsClose", function (evt) { mark(evt, false); });
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll(".chat-lines").forEach(function (box) { box.scrollTop = box.scrollHeight; });
  });
})();
