// Play by clicking, for every game (notation/clicks.py): the server sends,
// for the player to move only, where the board's squares and zone items are
// drawn and either every legal turn with its clicks, or nothing (then each
// step is asked of GET /api/v1/games/<id>/clicks?click=...).  Clicking
// narrows the turns; the turn box fills as you go; when several turns fit
// the same clicks they are offered to choose from; a whole turn's board is
// previewed with the changed squares outlined.  Typing in the turn box still
// works: the board follows it.  No game is named here, and every word shown
// comes from the page's data-say-* attributes.  A click the rules force
// (the only next click, with no whole turn yet: the "at" of "X1 at 0,1") is
// made for the player once they have started; Undo takes it back with the
// click that led to it.
(function () {
  var root = document.getElementById("click-play");
  var board = document.getElementById("board");
  var box = document.getElementById("turn");
  if (!root || !board || !box) return;
  var geometry = JSON.parse(root.dataset.board);
  var turns = JSON.parse(root.dataset.turns);  // null: ask the server step by step
  var say = document.getElementById("click-say");
  var buttons = document.getElementById("click-buttons");
  var choices = document.getElementById("click-choices");
  var preview = document.getElementById("click-preview");
  var previewBoard = document.getElementById("click-preview-board");
  var previewSay = document.getElementById("click-preview-say");
  var nowSrc = board.getAttribute("src");
  var prefix = [];
  var forced = [];  // for each click of prefix: made for the player
  var asked = 0;  // answers to older questions are dropped
  var cells = {};

  function words(name, turn) {
    return (root.dataset["say" + name] || "").replace("{turn}", turn || "").replace("{id}", turn || "");
  }

  function startsWith(clicks, start) {
    if (clicks.length < start.length) return false;
    for (var i = 0; i < start.length; i++) if (clicks[i] !== start[i]) return false;
    return true;
  }

  function commonStart(texts) {
    if (!texts.length) return "";
    var sorted = texts.slice().sort();
    var low = sorted[0], high = sorted[sorted.length - 1], n = 0;
    while (n < low.length && n < high.length && low[n] === high[n]) n++;
    return low.slice(0, n);
  }

  // the same answer as notation.clicks.click_options, from the list sent
  function localOptions(start) {
    var next = [], complete = [], texts = [];
    turns.forEach(function (t) {
      if (!startsWith(t[1], start)) return;
      texts.push(t[0]);
      if (t[1].length === start.length) complete.push(t[0]);
      else if (next.indexOf(t[1][start.length]) < 0) next.push(t[1][start.length]);
    });
    return Promise.resolve({ next: next, complete: complete, text: commonStart(texts), count: texts.length });
  }

  function options(start) {
    if (turns) return localOptions(start);
    var url = root.dataset.steps + "?" + start.map(function (c) {
      return "click=" + encodeURIComponent(c);
    }).join("&");
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("clicks");
      return r.json();
    });
  }

  // the board image is wrapped in a layer that holds a button per region
  var layer = document.createElement("div");
  layer.className = "click-layer";
  board.parentNode.insertBefore(layer, board);
  layer.appendChild(board);
  // a thing drawn in several parts (a territory of several tiles) has a
  // cell on each part, all making the same click
  var parts = Object.keys(geometry.regions).map(function (id) { return [id, geometry.regions[id]]; });
  parts.concat(geometry.more || []).forEach(function (part) {
    var id = part[0], r = part[1];
    var cell = document.createElement("button");
    cell.type = "button";
    cell.className = "click-cell";
    cell.dataset.click = id;
    cell.setAttribute("aria-label", /^[a-z][0-9]+$/.test(id) ? words("Square", id) : id);
    cell.style.left = (100 * r[0] / geometry.width) + "%";
    cell.style.top = (100 * r[1] / geometry.height) + "%";
    cell.style.width = (100 * (r[2] - r[0]) / geometry.width) + "%";
    cell.style.height = (100 * (r[3] - r[1]) / geometry.height) + "%";
    cell.disabled = true;
    cell.addEventListener("click", function () { click(id); });
    layer.appendChild(cell);
    (cells[id] = cells[id] || []).push(cell);
  });

  function setBox(text) {
    if (box.value === text) return;
    box.value = text;
    box.dispatchEvent(new Event("input"));  // the live preview of preview.js
  }

  function showPreview(turn) {
    if (!turn) { preview.hidden = true; previewBoard.removeAttribute("src"); return; }
    previewSay.textContent = words("Preview", turn);
    previewBoard.alt = words("Preview", turn);
    previewBoard.src = root.dataset.previewBoard + "?turn=" + encodeURIComponent(turn);
    preview.hidden = false;
  }

  function button(place, label, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.click = label;
    b.addEventListener("click", action);
    place.appendChild(b);
    return b;
  }

  function draw(answer, fillBox) {
    var next = answer.next || [], complete = answer.complete || [];
    root.dataset.clicked = prefix.join(" ");  // what the board shows now (tests wait for it)
    Object.keys(cells).forEach(function (id) {
      var can = next.indexOf(id) >= 0;
      cells[id].forEach(function (cell) {
        cell.disabled = !can;
        cell.classList.toggle("can", can);
        cell.classList.toggle("picked", prefix.indexOf(id) >= 0);
      });
    });
    buttons.textContent = "";
    choices.textContent = "";
    next.forEach(function (c) {
      if (!cells[c]) button(buttons, c, function () { click(c); });
    });
    var ready = complete.length === 1 ? complete[0] : "";
    if (complete.length > 1) {
      say.textContent = words("Choose");
      complete.forEach(function (t) {
        button(choices, t, function () { setBox(t); showPreview(t); say.textContent = words("Ready", t); });
      });
    } else if (ready) {
      say.textContent = words(next.length ? "ReadyMore" : "Ready", ready);
    } else if (!next.length) {
      say.textContent = words("None");
    } else {
      say.textContent = prefix.length ? words("Next", answer.text || prefix.join(" ")) : words("Start");
    }
    if (fillBox) setBox(ready || (prefix.length ? answer.text || "" : ""));
    showPreview(ready);
  }

  function update(fillBox, advance) {
    var mine = ++asked;
    if (!turns) say.textContent = words("Wait");
    return options(prefix).then(function (answer) {
      if (mine !== asked) return;
      var next = answer.next || [];
      if (advance && prefix.length && next.length === 1 && !(answer.complete || []).length) {
        prefix.push(next[0]);  // the only click the rules leave: made for the player
        forced.push(true);
        return update(fillBox, true);
      }
      draw(answer, fillBox);
    }).catch(function () { if (mine === asked) say.textContent = words("None"); });
  }

  function click(id) {
    prefix.push(id);
    forced.push(false);
    update(true, true);
  }

  document.getElementById("click-undo").addEventListener("click", function () {
    while (forced.length && forced[forced.length - 1]) { prefix.pop(); forced.pop(); }
    prefix.pop();
    forced.pop();
    update(true, false);
  });
  document.getElementById("click-clear").addEventListener("click", function () {
    prefix = [];
    forced = [];
    update(true, false);
  });

  // typing: the clicks follow the text (from the list; step by step, the
  // clicks start again and the board waits for a cleared box)
  function followTyped() {
    var text = box.value.trim().toLowerCase();
    if (!turns) {
      prefix = [];
      forced = [];
      if (!text) { update(false, false); return; }
      asked++;
      draw({ next: [], complete: [] }, false);
      say.textContent = words("Typed");
      return;
    }
    var fits = turns.filter(function (t) { return t[0].toLowerCase().indexOf(text) === 0; });
    var exact = turns.filter(function (t) { return t[0].toLowerCase() === text; });
    if (exact.length === 1) prefix = exact[0][1].slice();
    else if (!text || !fits.length) prefix = [];
    else {
      prefix = fits[0][1].slice();
      fits.forEach(function (t) {
        var n = 0;
        while (n < prefix.length && n < t[1].length && prefix[n] === t[1][n]) n++;
        prefix = prefix.slice(0, n);
      });
    }
    forced = prefix.map(function () { return false; });
    update(false, false);
  }

  var typing = null;
  box.addEventListener("input", function (event) {
    if (!event.isTrusted) return;  // our own filling in
    clearTimeout(typing);
    typing = setTimeout(followTyped, 300);
  });

  // stepping back through the game hides the clicks: they are for the board now
  new MutationObserver(function () {
    layer.classList.toggle("past", board.getAttribute("src") !== nowSrc);
    Object.keys(cells).forEach(function (id) {
      cells[id].forEach(function (cell) { cell.hidden = board.getAttribute("src") !== nowSrc; });
    });
  }).observe(board, { attributes: true, attributeFilter: ["src"] });

  root.hidden = false;
  if (box.value.trim()) followTyped(); else update(false, false);
})();
