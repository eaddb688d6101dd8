// The teacher's dashboard: reads api/class every few seconds and draws the class table,
// the most-missed exercises and a student's history.  Every text from the server is set as
// text (never as HTML).  The filter lives in the address (#game=...&notebook=...), so a
// reload keeps it; a refresh keeps the open history and the focused student.
(function () {
  "use strict";
  var body = document.body;
  var prefix = body.dataset.prefix;
  var xsrf = body.dataset.xsrf;
  var REFRESH_MS = 5000;
  var state = {game: "", notebook: "", open: "", data: null, busy: false, first: true,
               notice: ""};

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function when(seconds) {
    if (!seconds) return "never";
    var d = new Date(seconds * 1000);
    var today = new Date();
    var time = d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
    if (d.toDateString() === today.toDateString()) return "today " + time;
    return d.toLocaleDateString() + " " + time;
  }
  function say(text) { $("status").textContent = text; }

  function request(method, path, payload) {
    var options = {method: method, credentials: "same-origin",
                   headers: {"X-XSRFToken": xsrf, "Accept": "application/json"}};
    if (payload !== undefined) options.body = payload;
    return fetch(prefix + path, options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          var text = (data && data.error) || ("the server answered " + response.status);
          if (response.status === 401) text = "You are signed out: reload the page to sign in again.";
          throw new Error(text);
        }
        return data;
      });
    });
  }

  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    state.game = params.get("game") || "";
    state.notebook = params.get("notebook") || "";
    state.open = params.get("student") || "";
  }
  function writeHash() {
    var params = new URLSearchParams();
    if (state.game) params.set("game", state.game);
    if (state.notebook) params.set("notebook", state.notebook);
    if (state.open) params.set("student", state.open);
    history.replaceState(null, "", "#" + params.toString());
    var query = new URLSearchParams({game: state.game, notebook: state.notebook});
    $("export").href = "export.csv?" + query.toString();
  }

  function notebookWords(path) {      // "harmonies/02_landscapes.ipynb" -> "harmonies: 02 landscapes"
    return path.replace(/\.ipynb$/, "").replace("/", ": ").replace(/_/g, " ");
  }

  function shownColumns(data) {
    if (!$("tried-only").checked) return data.columns;
    var tried = data.columns.filter(function (c) {
      return data.students.some(function (s) { return s.cells[c.kind].state; });
    });
    return tried.length ? tried : data.columns;
  }

  function fillSelect(select, values, first, chosen, words) {
    if (chosen === undefined) chosen = select.value;
    var wanted = [""].concat(values).join("\n");
    var now = Array.prototype.map.call(select.options, function (o) { return o.value; }).join("\n");
    if (wanted !== now) {           // rebuilt only when the choices change (an open list stays open)
      select.textContent = "";
      select.appendChild(new Option(first, ""));
      values.forEach(function (value) {
        select.appendChild(new Option(words ? words(value) : value, value));
      });
    }
    select.value = values.indexOf(chosen) >= 0 ? chosen : "";
  }

  function drawFilter(data) {
    fillSelect($("game"), data.games, "All games", state.game);
    var notebooks = state.game ? (data.notebooks[state.game] || []) :
      [].concat.apply([], data.games.map(function (g) { return data.notebooks[g]; }));
    fillSelect($("notebook"), notebooks, "All notebooks", state.notebook, notebookWords);
    fillSelect($("import-student"), data.roster, "Choose a student");
  }

  function drawHead(columns) {
    var head = $("class-table").tHead;
    head.textContent = "";
    var groups = el("tr");
    groups.appendChild(el("td"));
    var last = null, span = null;
    columns.forEach(function (c) {
      if (c.notebook !== last) {
        span = el("th", notebookWords(c.notebook));
        span.scope = "colgroup";
        span.colSpan = 1;
        groups.appendChild(span);
        last = c.notebook;
      } else {
        span.colSpan += 1;
      }
    });
    groups.appendChild(el("td"));
    var names = el("tr");
    names.appendChild(el("th", "Student", "")).scope = "col";
    columns.forEach(function (c) {
      var th = el("th");
      th.scope = "col";
      th.appendChild(el("span", c.title, "title"));
      th.appendChild(el("span", c.rule, "rule"));
      names.appendChild(th);
    });
    names.appendChild(el("th", "Last activity")).scope = "col";
    head.appendChild(groups);
    head.appendChild(names);
  }

  function drawRows(data, columns) {
    var bodyRows = $("class-table").tBodies[0];
    var focused = document.activeElement && document.activeElement.dataset ?
      document.activeElement.dataset.student : undefined;
    bodyRows.textContent = "";
    if (!data.students.length) {
      var empty = el("tr");
      var td = el("td", "No student has checked an answer yet.");
      td.colSpan = columns.length + 2;
      empty.appendChild(td);
      bodyRows.appendChild(empty);
    }
    data.students.forEach(function (s) {
      var tr = el("tr");
      var th = el("th");
      th.scope = "row";
      var button = el("button", s.name, "student");
      button.type = "button";
      button.dataset.student = s.name;
      button.setAttribute("aria-label", s.name + ": show the history");
      button.addEventListener("click", function () { openHistory(s.name, true); });
      th.appendChild(button);
      tr.appendChild(th);
      columns.forEach(function (c) {
        var cell = s.cells[c.kind];
        var td = el("td", cell.text, "state " + (cell.state || "none"));
        td.title = c.title + ": " + cell.text + " (" + cell.right + " right)";
        tr.appendChild(td);
      });
      tr.appendChild(el("td", when(s.last) + (s.from_file ? " (includes a saved file)" : "")));
      bodyRows.appendChild(tr);
      if (focused === s.name) button.focus();
    });
  }

  function drawMissed(missed) {
    var box = $("missed");
    box.textContent = "";
    if (!missed.length) {
      box.appendChild(el("p", "No wrong answer yet in what the table shows."));
      return;
    }
    var list = el("ol");
    missed.forEach(function (m) {
      var item = el("li");
      item.appendChild(el("strong", m.title));
      item.appendChild(el("span", " (" + m.rule + "): " + m.wrong + " wrong " +
        (m.wrong === 1 ? "answer" : "answers") + " from " + m.students + " " +
        (m.students === 1 ? "student" : "students") + "."));
      if (m.misconceptions.length) {
        var ideas = el("p", "Misconceptions heard: ");
        ideas.textContent += m.misconceptions.map(function (x) {
          return x.text + " (" + x.count + (x.count === 1 ? " time" : " times") + ")" +
            (x.reason ? ": " + x.reason.replace(/[.\s]+$/, "") : ""); }).join("; ") + ".";
        item.appendChild(ideas);
      }
      var answers = el("p", "Wrong answers given most: ");
      answers.textContent += m.answers.map(function (x) {
        return "“" + x.answer + "” (" + x.count + ")"; }).join("; ") + ".";
      item.appendChild(answers);
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  function draw(data) {
    if (state.first && !state.game && !state.notebook && data.latest_game) {
      // a first visit with no filter opens on the game the class played last
      state.first = false;
      state.game = data.latest_game;
      writeHash();
      state.busy = false;
      return refresh();
    }
    state.first = false;
    state.data = data;
    drawFilter(data);
    var columns = shownColumns(data);
    drawHead(columns);
    drawRows(data, columns);
    drawMissed(data.missed);
    say(state.notice + "The table shows " + data.students.length + " " +
        (data.students.length === 1 ? "student" : "students") + ". Updated " +
        new Date(data.now * 1000).toLocaleTimeString() + ".");
  }

  function refresh() {
    if (state.busy) return Promise.resolve();
    state.busy = true;
    var query = new URLSearchParams({game: state.game, notebook: state.notebook});
    return request("GET", "api/class?" + query.toString()).then(draw).then(function () {
      if (state.open) return openHistory(state.open, false);
    }).catch(function (error) {
      say("Could not update the table: " + error.message);
    }).then(function () { state.busy = false; });
  }

  function openHistory(name, moveFocus) {
    return request("GET", "api/attempts/" + encodeURIComponent(name)).then(function (data) {
      var changed = state.open !== name;
      state.open = name;
      writeHash();
      $("history").hidden = false;
      $("history-heading").textContent = "History of " + name;
      $("history-caption").textContent = data.history.length + " " +
        (data.history.length === 1 ? "attempt" : "attempts") + ", newest first";
      if (changed) $("confirm").hidden = true;
      var tbody = $("history-table").tBodies[0];
      tbody.textContent = "";
      data.history.forEach(function (h) {
        var tr = el("tr");
        tr.appendChild(el("td", when(h.received)));
        tr.appendChild(el("td", h.title + " (" + h.rule + ")"));
        tr.appendChild(el("td", h.level));
        tr.appendChild(el("td", h.answer || "—"));
        var verdict = h.verdict === "right" ? "✓ right" :
          (h.verdict === "answer shown" ? "◌ answer shown" : "✗ not right");
        if (h.verdict !== "right" && (h.reason || h.misconception)) {
          verdict += ": " + (h.reason || h.misconception);
        }
        tr.appendChild(el("td", verdict, "verdict " + h.verdict.replace(" ", "-")));
        tr.appendChild(el("td", h.hints));
        tr.appendChild(el("td", h.shown ? "yes" : "no"));
        tr.appendChild(el("td", h.checked));
        tbody.appendChild(tr);
      });
      if (moveFocus) $("history-heading").focus();
    }).catch(function (error) {
      say("Could not show the history of " + name + ": " + error.message);
    });
  }

  function closeHistory() {
    var name = state.open;
    state.open = "";
    writeHash();
    $("history").hidden = true;
    var button = document.querySelector('button.student[data-student="' + CSS.escape(name) + '"]');
    if (button) button.focus();
  }

  function askDelete() {
    var rows = $("history-table").tBodies[0].rows.length;
    $("confirm-text").textContent = "Delete all " + rows + " " + (rows === 1 ? "attempt" : "attempts") +
      " of " + state.open + "? They cannot be brought back (download the CSV first to keep a copy).";
    $("confirm").hidden = false;
    $("confirm-no").focus();
  }

  function doDelete() {
    var name = state.open;
    request("DELETE", "api/students/" + encodeURIComponent(name)).then(function (data) {
      $("confirm").hidden = true;
      closeHistory();
      state.notice = "Deleted " + data.deleted + " " +
        (data.deleted === 1 ? "attempt" : "attempts") + " of " + name + ". ";
      say(state.notice);
      return refresh();
    }).catch(function (error) { $("confirm-text").textContent = "Not deleted: " + error.message; });
  }

  function doImport(event) {
    event.preventDefault();
    var student = $("import-student").value;
    var file = $("import-file").files[0];
    var out = $("import-status");
    if (!student || !file) {
      out.textContent = "Choose a student and a progress file first.";
      return;
    }
    file.text().then(function (text) {
      return request("POST", "api/import?student=" + encodeURIComponent(student), text);
    }).then(function (data) {
      out.textContent = "Added " + data.stored + " " + (data.stored === 1 ? "attempt" : "attempts") +
        " to " + data.student + "'s record" +
        (data.already ? " (" + data.already + " " + (data.already === 1 ? "was" : "were") +
         " there already)." : ".");
      return refresh();
    }).catch(function (error) { out.textContent = "The file was not added: " + error.message; });
  }

  $("game").addEventListener("change", function () {
    state.game = $("game").value;
    state.notebook = "";
    state.notice = "";
    writeHash();
    refresh();
  });
  $("notebook").addEventListener("change", function () {
    state.notebook = $("notebook").value;
    writeHash();
    refresh();
  });
  $("tried-only").addEventListener("change", function () { if (state.data) draw(state.data); });
  $("filter").addEventListener("submit", function (event) { event.preventDefault(); });
  $("close-history").addEventListener("click", closeHistory);
  $("delete").addEventListener("click", askDelete);
  $("confirm-no").addEventListener("click", function () {
    $("confirm").hidden = true;
    $("delete").focus();
  });
  $("confirm-yes").addEventListener("click", doDelete);
  $("import").addEventListener("submit", doImport);

  readHash();
  state.first = !location.hash;
  writeHash();
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
