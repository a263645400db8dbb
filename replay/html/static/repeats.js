"use strict";
// Only in reports with repeats: after report.js has opened a case, list every repeat (status, reason, what the
// model sent at each step, the attempts). Model text goes in with textContent only, never as markup.
(function () {
  var dataNode = document.getElementById("case-data");
  var grid = document.getElementById("grid");
  if (!dataNode || !grid) return;
  var data = JSON.parse(dataNode.textContent);

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function answerText(resp) {
    if (!resp) return "no answer";
    var calls = (resp.tool_calls || []).map(function (tc) {
      var args = typeof tc.arguments === "string" ? tc.arguments : JSON.stringify(tc.arguments);
      return tc.name + "(" + args + ")";
    });
    if (calls.length) return calls.join("; ");
    return resp.content ? "text: " + resp.content : "an empty answer";
  }

  function repeatBlock(run) {
    var box = el("details");
    var summary = el("summary");
    summary.appendChild(el("span", "badge " + (run.status || "unrecorded"), run.status || "no result"));
    summary.appendChild(el("span", null, " repeat " + run.repeat));
    if (run.reason) summary.appendChild(el("span", "reason", " " + run.reason));
    box.appendChild(summary);
    (run.steps || []).forEach(function (step, i) {
      var line = el("div", "step-line");
      line.appendChild(el("strong", null, "Step " + ((step.index === undefined ? i : step.index) + 1) + ": "));
      line.appendChild(el("span", null, (step.passed ? "passed" : "failed") + " · "));
      line.appendChild(el("code", null, answerText(step.response)));
      box.appendChild(line);
    });
    var attempts = (run.attempts || []).map(function (a) {
      return "step " + (a.step + 1) + " attempt " + a.attempt + ": " + a.outcome +
        (a.wall_ms === null || a.wall_ms === undefined ? "" : " in " + a.wall_ms + " ms");
    });
    box.appendChild(el("p", "muted", attempts.length ? attempts.join(" · ") : "No HTTP attempt recorded."));
    return box;
  }

  // report.js opens the case first (its listeners were added first), by click or by Enter/Space on a focused
  // cell; this then adds the repeats to what it opened.
  function addRepeats(td) {
    if (!td || !grid.contains(td) || !td.parentNode.hasAttribute("data-m")) return;
    var res = data.cells[Number(td.parentNode.getAttribute("data-m"))][td.cellIndex - 1];
    if (!res || !res.runs) return;
    var out = document.getElementById("case-body");
    var passed = res.runs.filter(function (r) { return r.status === "passed"; }).length;
    var scored = res.runs.filter(function (r) { return r.status === "passed" || r.status === "failed"; }).length;
    var section = el("div", "repeats");
    section.appendChild(el("h4", null, "Repeats: " + passed + " of " + scored + " scored passed"));
    res.runs.forEach(function (run) { section.appendChild(repeatBlock(run)); });
    out.insertBefore(section, out.children[1] || null);
  }
  grid.addEventListener("click", function (ev) { addRepeats(ev.target.closest("td")); });
  grid.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" || ev.key === " ") addRepeats(ev.target.closest("td"));
  });

  // A strip's title and label also say how many repeats passed.
  function repeatsText(td) {
    var r = td.getAttribute("data-r");
    var passed = r.split("").filter(function (c) { return c === "p"; }).length;
    var m = Number(td.parentNode.getAttribute("data-m"));
    var res = data.cells[m][td.cellIndex - 1];
    return data.cases[td.cellIndex - 1].id + " · " + data.models[m] + " · " + (res ? res.status : "no result") +
      " · " + passed + " of " + r.length + " repeats passed";
  }
  grid.addEventListener("mouseover", function (ev) {
    var td = ev.target.closest("td");
    if (td && td.hasAttribute("data-r")) td.title = repeatsText(td);
  });
  grid.addEventListener("focusin", function (ev) {
    var td = ev.target.closest("td");
    if (td && td.hasAttribute("data-r")) td.setAttribute("aria-label", repeatsText(td));
  });
})();
