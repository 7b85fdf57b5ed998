// The event form in the organizer's own time: the server sends its times in UTC (tz "UTC"); here they are
// shown in the browser's zone, and the zone's name goes back with the form so the server reads them so.
(function () {
  "use strict";
  function pad(n) { return String(n).padStart(2, "0"); }
  function local(date) {
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) + "T" +
      pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds());
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("event-form");
    var tz = form && form.querySelector('input[name="tz"]');
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!tz || !zone || tz.value === zone) return;
    if (tz.value === "UTC" || tz.value === "") {
      form.querySelectorAll('input[type="datetime-local"]').forEach(function (input) {
        if (!input.value) return;
        var when = new Date(input.value + "Z");
        if (!isNaN(when)) input.value = local(when);
      });
      tz.value = zone;
    }
  });
})();
