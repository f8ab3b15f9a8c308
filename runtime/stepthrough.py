"""A recorded game as one self-contained HTML page that steps through it, decision by decision.

The page holds the :class:`~rulewright.runtime.transcript.GameRecord` as JSON (each step: the
board as the viewer saw it before the decision, the move, what changed) and a few lines of
script that draw one step at a time: buttons, a slider and the arrow keys move between steps.
Nothing is fetched from anywhere, so the file can be mailed or archived as it is.
"""

from __future__ import annotations

import html
import json

from .transcript import GameRecord

__all__ = ["render_html", "record_json"]


def record_json(record: GameRecord) -> dict:
    """The record as plain data, as the page embeds it."""
    return {
        "title": record.title,
        "steps": [{"number": s.number, "seat": s.seat + 1, "move": s.move, "options": s.options,
                   "changes": s.changes, "board": s.board.to_json()} for s in record.steps],
        "final": {"board": record.final.to_json(), "outcome": record.outcome},
    }


_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.3em; } nav { margin: 1em 0; display: flex; gap: .5em; align-items: center; }
nav input[type=range] { flex: 1; } #move { font-size: 1.15em; font-weight: 600; margin: .5em 0; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .15em .6em; text-align: left; }
th { border-bottom: 1px solid #999; } td.n { text-align: right; } .hidden { color: #999; }
.heading { color: #06c; font-weight: 600; } ul { margin: .3em 0; } .options li { color: #555; }
section { margin: .8em 0; }
"""

_SCRIPT = """
const record = JSON.parse(document.getElementById("record").textContent);
const total = record.steps.length;
const slider = document.getElementById("slider");
slider.max = total;
function el(tag, text, cls) { const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
function rowsText(rows) { return rows.map(r => (r.name ? r.name + ": " : "") + r.text).join(" \\u00b7 "); }
function drawBoard(board) {
  const box = el("div");
  if (board.status.length) box.appendChild(el("p", rowsText(board.status), "status"));
  const seats = board.seats;
  if (seats.length) {
    const table = el("table"); const head = el("tr"); head.appendChild(el("th", ""));
    const names = [];
    seats[0].sections.forEach((s, i) => s.rows.forEach(r => { if (!r.zone) names.push([i, r.name]); }));
    names.forEach(([i, n]) => head.appendChild(el("th", n))); table.appendChild(head);
    seats.forEach(seat => { const tr = el("tr"); tr.appendChild(el("th", seat.title));
      names.forEach(([i, n]) => { const row = (seat.sections[i] || {rows: []}).rows.find(r => r.name === n);
        tr.appendChild(el("td", row ? row.text : "", row && row.hidden ? "n hidden" : "n")); });
      table.appendChild(tr); });
    box.appendChild(table);
    seats.forEach(seat => seat.sections.forEach(s => { const zones = s.rows.filter(r => r.zone && r.text !== "\\u2014");
      if (zones.length) { const p = el("p"); p.appendChild(el("span", seat.title + " \\u00b7 " + s.heading + ": ", "heading"));
        p.appendChild(document.createTextNode(rowsText(zones))); box.appendChild(p); } }));
  }
  board.shared.forEach(s => { const p = el("p"); p.appendChild(el("span", s.heading + ": ", "heading"));
    p.appendChild(document.createTextNode(rowsText(s.rows))); box.appendChild(p); });
  return box;
}
function show(index) {
  index = Math.max(0, Math.min(total, index)); slider.value = index;
  const at = document.getElementById("at"), move = document.getElementById("move");
  const body = document.getElementById("board"), changes = document.getElementById("changes");
  const options = document.getElementById("options");
  body.replaceChildren(); changes.replaceChildren(); options.replaceChildren();
  if (index === total) {
    at.textContent = "end of the game"; move.textContent = record.final.outcome.join(" ");
    body.appendChild(drawBoard(record.final.board)); return;
  }
  const step = record.steps[index];
  at.textContent = "decision " + step.number + " of " + total;
  move.textContent = step.move;
  step.options.forEach(o => options.appendChild(el("li", o)));
  step.changes.forEach(c => changes.appendChild(el("li", c)));
  body.appendChild(drawBoard(step.board));
  location.hash = String(index + 1);
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(Number(slider.value) - 1);
document.getElementById("next").onclick = () => show(Number(slider.value) + 1);
document.getElementById("last").onclick = () => show(total);
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", e => { if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
  if (e.key === "ArrowRight") show(Number(slider.value) + 1); });
show(Math.max(0, (parseInt(location.hash.slice(1), 10) || 1) - 1));
"""


def render_html(record: GameRecord) -> str:
    """The whole page: the record as JSON and the script that draws it."""
    data = json.dumps(record_json(record), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/")  # the JSON may hold any text; it must not end the script
    title = html.escape(record.title)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{title}</h1>
<nav>
<button id="first" type="button">&laquo; first</button>
<button id="prev" type="button">&lsaquo; previous</button>
<input id="slider" type="range" min="0" value="0" aria-label="decision">
<button id="next" type="button">next &rsaquo;</button>
<button id="last" type="button">end &raquo;</button>
<span id="at"></span>
</nav>
<div id="move"></div>
<section><div class="heading">Choices</div><ul id="options" class="options"></ul></section>
<section><div class="heading">The table before this decision</div><div id="board"></div></section>
<section><div class="heading">What changed</div><ul id="changes"></ul></section>
<noscript>This page needs JavaScript to step through the game; the game is in the
"record" script element as JSON.</noscript>
<script id="record" type="application/json">{data}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
