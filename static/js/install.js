// The installable app: its service worker keeps an offline page for when the network is gone.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* not installable here */ });
  });
})();
