// Progressive enhancement for the turn box: as the player types, ask the API
// what the turn would do and show the error or the canonical turn.
(function () {
  var box = document.getElementById("turn");
  var out = document.getElementById("live-preview");
  if (!box || !out) return;
  var timer = null;
  // clicking a legal turn copies it into the turn box
  document.querySelectorAll("ul.legal code").forEach(function (code) {
    code.style.cursor = "pointer";
    code.addEventListener("click", function () {
      box.value = code.textContent;
      box.dispatchEvent(new Event("input"));
      box.focus();
    });
  });
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var text = box.value.trim();
      if (!text) { out.textContent = ""; return; }
      fetch(box.dataset.preview + "?turn=" + encodeURIComponent(text), { credentials: "same-origin" })
        .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
        .then(function (result) {
          out.textContent = result[0] ? "OK: " + result[1].canonical : result[1].error;
        })
        .catch(function () { out.textContent = ""; });
    }, 300);
  });
})();
