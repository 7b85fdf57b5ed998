// Messages after an action ("You sat down.", "A bot sat down.") are news for a moment:
// they fade after a few seconds (the live table also drops them on the next move).
// Errors stay until the page changes, so they can be read.
(function () {
  "use strict";
  var SHOWN_MS = 5000;
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".messages li:not(.error)").forEach(function (li) {
      setTimeout(function () {
        li.classList.add("fading");
        setTimeout(function () { li.remove(); }, 400);
      }, SHOWN_MS);
    });
  });
})();
