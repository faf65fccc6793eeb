// The pit view keeps itself current: the server pushes the table cards (HTML) whenever the floor changes.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var tables = document.getElementById("tables");
  function state(on) {
    live.textContent = on ? live.dataset.live : live.dataset.offline;
    live.className = "live " + (on ? "on" : "off");
  }
  var source = new EventSource("/pit/stream");
  source.addEventListener("open", function () { state(true); });
  source.addEventListener("error", function () { state(false); });
  source.addEventListener("signed-out", function (event) {
    source.close();
    window.location.assign(event.data);
  });
  source.addEventListener("pit", function (event) {
    tables.innerHTML = event.data;
    state(true);
  });
})();
