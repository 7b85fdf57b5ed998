// Live turn countdowns: every [data-deadline] element shows the seconds left.
// The server owns the clock (the deadline is on the game row); this only displays it.
(function () {
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      // a match's opening turn: its clock starts once every player's page is open (or the grace is over)
      var waiting = el.dataset.starts && Date.parse(el.dataset.starts) > Date.now();
      el.classList.toggle("waiting", !!waiting);
      if (waiting) { el.textContent = el.dataset.waiting; return; }
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      // the seconds' unit in the page's language ("58s", "58 с"), from the table page
      var holder = el.closest("[data-seconds]");
      var seconds = (holder ? holder.dataset.seconds : "{n}s").replace("{n}", left);
      el.textContent = left >= 60 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : seconds;
      el.classList.toggle("urgent", left <= 10);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);
})();
