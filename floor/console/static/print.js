// The report's Print button (a script of our own: the console's pages allow no inline script).
(function () {
  "use strict";
  var button = document.getElementById("print");
  if (button) { button.addEventListener("click", function () { window.print(); }); }
})();
