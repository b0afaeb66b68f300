// A live game page: the page listens to the game's event stream
// (GET /api/v1/games/<id>/events, with the signed-in session) and, when a
// change arrives (a turn by anyone, a result, a draw offer, the clock),
// fetches the page again and puts its new content in place of the old: the
// board, the move list, "your turn" and the turn box, the result follow
// without a reload.  What the player is typing in the turn box stays.
// While the player steps back through the game, or reads the preview of a
// turn or the error of a refused one, nothing is swapped: the page says the
// game moved on, with a link to show it.  Without JavaScript
// (or EventSource) the page is as it was.  No word is written here: the
// notice is in the page.
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var source = null;
  var shownKey = live.dataset.state;  // what the page shows now
  var newestKey = shownKey;  // what the newest event says
  var busy = false;

  function keyOf(data) {  // as pbem.services.events.state_key
    return [data.ply, data.status, data.result, (data.draw_offer || []).join(","), data.deadline || "",
            data.open_seats].join("|");
  }

  function steppingBack() {
    var nav = document.getElementById("history");
    return nav && nav.dataset.shown !== nav.dataset.last;
  }

  function tell() {
    var news = document.getElementById("live-news");
    if (news) news.hidden = false;
  }

  function rerun(scripts) {
    scripts.forEach(function (old) {
      if (old.hasAttribute("data-live")) return;  // this script goes on as it is
      var script = document.createElement("script");
      script.src = old.src;
      script.async = false;  // in the page's order
      document.body.appendChild(script);
    });
  }

  function refresh() {
    if (busy) return;
    busy = true;
    var asked = newestKey;
    fetch(live.dataset.page, { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) { if (!answer.ok) throw new Error(answer.status); return answer.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var main = document.querySelector("main");
        var next = fresh.querySelector("main");
        if (!main || !next) return;
        var box = document.getElementById("turn");
        var typed = box ? box.value : "";
        var focused = box && document.activeElement === box;
        var start = box ? box.selectionStart : null, end = box ? box.selectionEnd : null;
        main.innerHTML = next.innerHTML;
        var newBox = document.getElementById("turn");
        if (newBox && typed) {
          newBox.value = typed;
          if (focused) { newBox.focus(); try { newBox.setSelectionRange(start, end); } catch (e) { /* no selection */ } }
        }
        rerun(Array.prototype.slice.call(main.querySelectorAll("script[src]")));
        if (newBox && typed) newBox.dispatchEvent(new Event("input"));
        var now = document.getElementById("live");
        shownKey = now ? now.dataset.state : asked;
        if (now) now.dataset.listening = "true"; else source.close();  // over: nothing more will change
        document.documentElement.dataset.liveUpdated = String(Date.now());  // (what a test waits for)
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        busy = false;
        if (newestKey !== shownKey && newestKey !== asked) changed();
      });
  }

  // a page the player is reading something on that the page at its address would not show again (a
  // preview of their turn, the error of a turn refused): say the game moved on instead of replacing it
  function reading() {
    return document.querySelector("div.preview") || document.getElementById("turn-error");
  }

  function changed() {
    if (newestKey === shownKey) return;
    if (steppingBack() || reading()) { tell(); return; }
    refresh();
  }

  function connect() {
    source = new EventSource(live.dataset.events);
    source.addEventListener("game", function (event) {
      newestKey = keyOf(JSON.parse(event.data));
      changed();
    });
    source.addEventListener("reset", function () { newestKey = "?"; changed(); });
    source.addEventListener("error", function () {
      // the browser reconnects by itself after a dropped connection, but not after a refusal
      // (the server holding all the streams it can: 503); then try again a little later
      if (source.readyState === EventSource.CLOSED && document.getElementById("live")) {
        setTimeout(connect, 10000 + Math.random() * 10000);
      }
    });
  }
  connect();
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("#live-show") : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", live.dataset.page);
    refresh();
  });
  live.dataset.listening = "true";
})();
