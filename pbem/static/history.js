// Progressive enhancement for following a game back: the step buttons, the
// move list and the arrow keys (Home: the start, End: now) change the board
// shown without reloading the page.  Without JavaScript the same links load
// the page at that turn (?ply=N).  Every word shown comes from the page; a
// game that reports its turns shows the report of the turn stepped to,
// fetched as text.
(function () {
  var nav = document.getElementById("history");
  var board = document.getElementById("board");
  if (!nav || !board) return;
  var last = parseInt(nav.dataset.last, 10);
  var shown = parseInt(nav.dataset.shown, 10);
  var where = document.getElementById("step-where");
  var position = document.getElementById("position");
  var png = document.getElementById("board-png");
  var txt = document.getElementById("board-txt");
  var report = document.getElementById("turn-report");
  var asked = 0;  // the last report asked for: an answer to an earlier step is dropped

  function showReport(ply) {
    if (!report) return;
    var title = document.getElementById("turn-report-title");
    var text = document.getElementById("turn-report-text");
    var mine = ++asked;
    if (ply === 0) { report.hidden = true; return; }
    fetch(report.dataset.report.replace("{ply}", ply), { credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.text() : ""; })
      .then(function (body) {
        if (mine !== asked) return;
        title.textContent = report.dataset.title.replace("{n}", ply);
        text.textContent = body;
        report.hidden = !body;
      })
      .catch(function () { if (mine === asked) report.hidden = true; });
  }

  function boardUrl(ply, ext) {
    return nav.dataset.board.replace("{ply}.svg", ply + "." + ext);
  }

  function pageUrl(ply) {
    var url = new URL(window.location.href);
    url.searchParams.delete("played");  // the note of a turn just played is not carried on
    if (ply === last) url.searchParams.delete("ply"); else url.searchParams.set("ply", ply);
    return url.toString();
  }

  function go(ply) {
    ply = Math.max(0, Math.min(last, ply));
    shown = ply;
    board.src = boardUrl(ply, "svg");
    board.alt = "";
    if (png) png.href = boardUrl(ply, "png");
    if (txt) txt.href = boardUrl(ply, "txt");
    showReport(ply);
    var text = ply === 0 ? nav.dataset.atStart : nav.dataset.atTurn.replace("{n}", ply).replace("{last}", last);
    where.textContent = text + (ply === last ? nav.dataset.now : "");
    document.querySelectorAll("a.ply").forEach(function (link) {
      var mine = parseInt(link.dataset.ply, 10) === ply;
      link.classList.toggle("shown", mine);
      if (mine) link.setAttribute("aria-current", "step"); else link.removeAttribute("aria-current");
      if (mine && position && link.dataset.position) position.textContent = link.dataset.position;
    });
    var steps = { "step-first": 0, "step-back": Math.max(0, ply - 1), "step-forward": Math.min(last, ply + 1), "step-last": last };
    Object.keys(steps).forEach(function (id) {
      var link = document.getElementById(id);
      if (!link) return;
      link.dataset.ply = steps[id];
      link.href = pageUrl(steps[id]);
    });
    nav.dataset.shown = ply;
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", pageUrl(ply));
  }

  document.querySelectorAll("nav.history a.step, a.ply").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      go(parseInt(link.dataset.ply, 10));
    });
  });

  document.addEventListener("keydown", function (event) {
    if (!nav.isConnected) return;  // the page was brought up to date (live.js): its own script steps now
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName))) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var moves = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: last };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  nav.dataset.ready = "true";  // the keys and links step from now on (what a test waits for)
})();
