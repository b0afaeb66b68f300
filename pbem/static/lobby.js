// The lobby's "play the computer" form: the level menu offers only the
// levels of the chosen game (each game option lists its levels in
// data-levels).  Without JavaScript every level is listed, and a level the
// game does not offer is refused with the game's levels named.
(function () {
  "use strict";
  var kind = document.getElementById("computer-kind");
  var level = document.getElementById("computer-level");
  if (!kind || !level) { return; }
  function follow() {
    var chosen = kind.options[kind.selectedIndex];
    var offered = (chosen && chosen.getAttribute("data-levels") || "").split(" ");
    for (var i = 0; i < level.options.length; i++) {
      var option = level.options[i];
      var shown = option.value === "" || offered.indexOf(option.value) >= 0;
      option.hidden = !shown;
      option.disabled = !shown;
    }
    if (level.selectedOptions.length && level.selectedOptions[0].disabled) { level.value = ""; }
  }
  kind.addEventListener("change", follow);
  follow();
}());
