"use strict";
// The report's only script. Every string that came from a model or a cassette is put into the page with
// textContent (never innerHTML), so it shows as text whatever it contains.
(function () {
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // --- Leaderboard: sort by any column; empty values (a dash) always sort last. ---
  var board = document.getElementById("board");
  if (board) {
    var heads = Array.prototype.slice.call(board.tHead.rows[0].cells);
    var body = board.tBodies[0];
    var sortValue = function (row, idx, numeric) {
      var v = row.cells[idx].getAttribute("data-v");
      if (v === "" || v === null) return null;
      return numeric ? parseFloat(v) : v;
    };
    var sortBy = function (th, dir) {
      var idx = heads.indexOf(th);
      var numeric = th.classList.contains("num");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = sortValue(a, idx, numeric);
        var y = sortValue(b, idx, numeric);
        if (x === null || y === null) {
          if (x !== y) return x === null ? 1 : -1;
        } else if (x !== y) {
          return (x < y ? -1 : 1) * (dir === "asc" ? 1 : -1);
        }
        var ma = a.getAttribute("data-model");
        var mb = b.getAttribute("data-model");
        return ma < mb ? -1 : ma > mb ? 1 : 0;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
    };
    heads.forEach(function (th) {
      th.querySelector("button").addEventListener("click", function () {
        var now = th.getAttribute("aria-sort");
        var dir = now === "descending" ? "asc" : now === "ascending" ? "desc" : th.getAttribute("data-first");
        sortBy(th, dir);
      });
    });
  }

  // --- Per-case grid: a cell opens its case from the JSON block. ---
  var dataNode = document.getElementById("case-data");
  var grid = document.getElementById("grid");
  var dialog = document.getElementById("case");
  if (!dataNode || !grid || !dialog) return;
  var data = JSON.parse(dataNode.textContent);
  var STATUS = { p: "passed", f: "failed", e: "errored", u: "unrecorded" };

  function pretty(value) {
    if (typeof value === "string") {
      try {
        var parsed = JSON.parse(value);
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
          return JSON.stringify(parsed, null, 2);
        }
      } catch (err) {
        // Not JSON: show exactly what was sent.
      }
      return value;
    }
    return JSON.stringify(value, null, 2);
  }

  function badge(status) {
    return el("span", "badge " + (status || "unrecorded"), status || "no result");
  }

  function messageBlock(role, content) {
    var box = el("div", "msg");
    box.appendChild(el("div", "role", role));
    box.appendChild(el("pre", null, typeof content === "string" ? content : pretty(content)));
    return box;
  }

  function expected(step) {
    var box = el("div", "expected");
    if (!step) {
      box.appendChild(el("p", "muted", "(not in the suite file)"));
      return box;
    }
    if (step.expect === "none") {
      box.appendChild(el("p", null, "Expected: no tool call (an answer in text)."));
      return box;
    }
    var calls = step.calls || [];
    box.appendChild(el("p", null, "Expected " + calls.length + " call" + (calls.length === 1 ? "" : "s") + ":"));
    calls.forEach(function (call) {
      var c = el("div", "call");
      c.appendChild(el("code", "name", call.name));
      c.appendChild(el("div", "label", "argument checks"));
      c.appendChild(el("pre", null, pretty(call.args || {})));
      if (call.result !== undefined && call.result !== null) {
        c.appendChild(el("div", "label", "scripted tool result"));
        c.appendChild(el("pre", null, call.result));
      }
      box.appendChild(c);
    });
    return box;
  }

  function sent(step) {
    var box = el("div", "sent");
    if (!step) {
      box.appendChild(el("p", "muted", "Not reached."));
      return box;
    }
    var head = el("p");
    head.appendChild(badge(step.passed ? "passed" : "failed"));
    if (step.reason) head.appendChild(el("span", "reason", " " + step.reason));
    box.appendChild(head);
    var resp = step.response;
    if (!resp) {
      box.appendChild(el("p", "muted", "No answer."));
      return box;
    }
    var label = el("div", "label", "the model sent");
    if (resp.model) label.appendChild(el("span", "answered", " (answered by " + resp.model + ")"));
    box.appendChild(label);
    (resp.tool_calls || []).forEach(function (tc) {
      var c = el("div", "call");
      c.appendChild(el("code", "name", tc.name));
      var flags = [];
      if (tc.offered === false) flags.push("not an offered tool");
      if (tc.parsed === false) flags.push("arguments are not a JSON object");
      if (tc.schema_valid === false && tc.parsed !== false) flags.push("arguments fail the schema");
      if (flags.length) c.appendChild(el("span", "flag", " " + flags.join("; ")));
      c.appendChild(el("pre", null, pretty(tc.arguments)));
      box.appendChild(c);
    });
    if (resp.content !== null && resp.content !== undefined && resp.content !== "") {
      box.appendChild(el("div", "label", "text"));
      box.appendChild(el("pre", "text", resp.content));
    }
    if (!(resp.tool_calls || []).length && !resp.content) box.appendChild(el("p", "muted", "An empty answer."));
    return box;
  }

  function attemptsTable(attempts) {
    var table = el("table", "attempts");
    var tr = el("tr");
    ["step", "attempt", "outcome", "HTTP status", "wall time", "cost, USD"].forEach(function (h) {
      tr.appendChild(el("th", null, h));
    });
    table.appendChild(tr);
    attempts.forEach(function (a) {
      var row = el("tr");
      [
        a.step === undefined || a.step === null ? "" : a.step + 1,
        a.attempt,
        a.outcome,
        a.status === null || a.status === undefined ? "–" : a.status,
        a.wall_ms === null || a.wall_ms === undefined ? "–" : a.wall_ms + " ms",
        a.cost_usd === null || a.cost_usd === undefined ? "–" : a.cost_usd,
      ].forEach(function (v) { row.appendChild(el("td", null, v)); });
      table.appendChild(row);
    });
    return table;
  }

  function openCase(m, c) {
    var kase = data.cases[c];
    var res = data.cells[m][c];
    var out = document.getElementById("case-body");
    out.replaceChildren();
    document.getElementById("case-title").textContent = kase.id + " · " + data.models[m];
    var head = el("p", "case-status");
    head.appendChild(badge(res ? res.status : null));
    head.appendChild(el("span", "muted", " " + (data.groups[kase.group] || kase.group)));
    if (res && res.reason) head.appendChild(el("span", "reason", " " + res.reason));
    if (!res) head.appendChild(el("span", "reason", " this results file has no entry for the case"));
    out.appendChild(head);

    out.appendChild(el("h4", null, "Request"));
    if (kase.in_suite) {
      if (data.system) {
        var sys = el("details");
        sys.appendChild(el("summary", null, "system prompt"));
        sys.appendChild(el("pre", null, data.system));
        out.appendChild(sys);
      }
      (kase.messages || []).forEach(function (msg) { out.appendChild(messageBlock(msg.role, msg.content)); });
      out.appendChild(el("p", "muted", "Tools offered: " + (kase.tools || []).join(", ")));
    } else {
      out.appendChild(el("p", "muted", "This case is not in the suite file the report was made with."));
    }

    var suiteSteps = kase.steps || [];
    var resSteps = (res && res.steps) || [];
    var byIndex = {};
    resSteps.forEach(function (s, i) { byIndex[s.index === undefined ? i : s.index] = s; });
    var n = Math.max(suiteSteps.length, resSteps.length);
    for (var i = 0; i < n; i++) {
      out.appendChild(el("h4", null, "Step " + (i + 1) + " of " + n));
      var pair = el("div", "step");
      pair.appendChild(expected(suiteSteps[i]));
      pair.appendChild(sent(byIndex[i]));
      out.appendChild(pair);
    }
    var attempts = (res && res.attempts) || [];
    out.appendChild(el("h4", null, "Attempts"));
    if (attempts.length) out.appendChild(attemptsTable(attempts));
    else out.appendChild(el("p", "muted", "No HTTP attempt recorded."));
    if (!dialog.open) dialog.showModal();
  }

  // A grid cell is a <td> of the body; its model is the row's data-m, its case the column (after the row header).
  function cellAt(target) {
    var td = target && target.closest ? target.closest("td") : null;
    return td && td.parentNode && td.parentNode.hasAttribute("data-m") && grid.contains(td) ? td : null;
  }
  function label(td) {
    var m = Number(td.parentNode.getAttribute("data-m"));
    var c = td.cellIndex - 1;
    return data.cases[c].id + " · " + data.models[m] + " · " + STATUS[td.className];
  }
  var opener = null;
  function openCell(td) {
    opener = td;
    openCase(Number(td.parentNode.getAttribute("data-m")), td.cellIndex - 1);
  }

  grid.addEventListener("click", function (ev) {
    var td = cellAt(ev.target);
    if (td) openCell(td);
  });
  // Titles and labels are set on first hover or focus, not written 8,000 times into the file.
  grid.addEventListener("mouseover", function (ev) {
    var td = cellAt(ev.target);
    if (td && !td.title) td.title = label(td);
  });

  // Keyboard: one tab stop for the whole grid (a roving tabindex), arrows move, Home/End go to the row's ends,
  // Enter or Space opens the case. Each cell is labelled "case · model · status" when it gets focus.
  function focusCell(td) {
    if (!td) return;
    var current = grid.querySelector("tbody td[tabindex='0']");
    if (current && current !== td) current.setAttribute("tabindex", "-1");
    td.setAttribute("tabindex", "0");
    if (!td.hasAttribute("aria-label")) td.setAttribute("aria-label", label(td));
    td.focus();
  }
  grid.addEventListener("focusin", function (ev) {
    var td = cellAt(ev.target);
    if (td && !td.hasAttribute("aria-label")) td.setAttribute("aria-label", label(td));
  });
  grid.addEventListener("keydown", function (ev) {
    var td = cellAt(ev.target);
    if (!td) return;
    var row = td.parentNode;
    var rows = grid.tBodies[0].rows;
    var col = td.cellIndex;
    var next = null;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      openCell(td);
      return;
    }
    if (ev.key === "ArrowRight") next = row.cells[col + 1];
    else if (ev.key === "ArrowLeft") next = col > 1 ? row.cells[col - 1] : null;
    else if (ev.key === "ArrowDown") next = rows[row.sectionRowIndex + 1] ? rows[row.sectionRowIndex + 1].cells[col] : null;
    else if (ev.key === "ArrowUp") next = row.sectionRowIndex > 0 ? rows[row.sectionRowIndex - 1].cells[col] : null;
    else if (ev.key === "Home") next = row.cells[1];
    else if (ev.key === "End") next = row.cells[row.cells.length - 1];
    else return;
    ev.preventDefault();
    focusCell(next);
  });

  document.getElementById("case-close").addEventListener("click", function () { dialog.close(); });
  dialog.addEventListener("click", function (ev) { if (ev.target === dialog) dialog.close(); });
  // Back to the cell that opened the case, so a keyboard user carries on where they were; unless the focus has
  // already gone elsewhere (the close event comes a moment after the dialog closed).
  dialog.addEventListener("close", function () {
    var active = document.activeElement;
    if (opener && (!active || active === document.body || active === opener || dialog.contains(active))) {
      focusCell(opener);
    }
    opener = null;
  });
})();
