// A time the server wrote in UTC, shown in the reader's own clock: <time datetime="…" data-local-time>.
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at)) return;
      el.textContent = at.toLocaleTimeString(document.documentElement.lang || undefined, {hour: "2-digit", minute: "2-digit"});
    });
  });
})();
