"""The terminal table: a person playing a seat, one compact screen per decision.

Each screen shows the status line, every seat's values side by side, the zones this seat may
see (its own in full; others' as the rules allow), the shared board, what happened since the
seat's last decision, and the choices in the designer's words. Everything on it comes from
``state.view(seat)`` (arranged by ``runtime/layout.py``), the seat's own options and moves
narrated through ``runtime/transcript.py``, so nothing the seat may not see reaches the screen.

:class:`HumanAgent` reads one line per decision: a choice's number, or a command (``h`` lists
them). Undo and save need the whole game, so they are offered by ``play``'s
:class:`TableSession`, which keeps the log (the log is the save file).
"""

from __future__ import annotations

import random
import re
import shlex
import sys
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from rich.console import Group

from .agents import HumanQuit, prepare_game
from .layout import Board, Presentation, arrange
from .time_limit import GameClock, TimeLimitExceeded
from .transcript import move_text

__all__ = ["HumanAgent", "HumanQuit", "UndoRequest", "TableSession", "SeatMemory",
           "render_screen", "SCREEN_LINES", "decision_title", "HELP"]

SCREEN_LINES = 38
"""The most lines one decision's screen takes (a 40-line terminal keeps the prompt in view)."""

NEWS_LINES = 6
"""What happened since the seat's last decision: at most this many lines (``l`` shows all)."""

_TITLES = {
    "item": "Choose one", "choose": "Choose one", "may": "Do it?", "paid": "Pay for it?",
    "order": "What first?", "face": "Which face up?", "forge": "Which face to replace?",
    "ability": "Use an ability, or done", "trigger": "Use this ability now?",
    "keep": "Set a die aside, or roll the rest",
}

HELP = """Type the number of a choice, or:
  ? N      rules text of what choice N names (card, die, space)
  ? NAME   rules text of a card, die or space by name
  b        the whole board: everything you can see, in full
  l        every move so far that you could see
  u        undo: back to your previous decision
  s [FILE] save the game (the log; rulewright play PACK --resume FILE goes on from it)
  q        quit (saves first when the game has a log file)
  h        this help"""


class UndoRequest(Exception):
    """The person asked to go back to their previous decision."""


def decision_title(kind: str | None) -> str:
    """The question a decision of ``kind`` asks, in words."""
    return _TITLES.get(kind or "", "Choose one")


# ---------------------------------------------------------------------------- the screen


def _values_tables(board: Board, width: int) -> list:
    """Every seat's values side by side: one row per seat, one column per value; sections
    that do not fit beside each other in ``width`` go into a table of their own below."""
    from rich import box
    from rich.table import Table

    if not board.seats:
        return []

    def cell(part, index: int, name: str) -> str:
        rows = part.sections[index][1] if index < len(part.sections) else []
        found = next((r for r in rows if r.name == name), None)
        return found.text if found is not None else ""

    def column_width(index: int, name: str) -> int:
        words = max(len(word) for word in name.split() or [""])
        return max([words] + [len(cell(p, index, name)) for p in board.seats]) + 1

    groups: list[list[tuple[int, str]]] = []
    used = max(len(p.title) for p in board.seats)
    room = used
    for index, (_, rows) in enumerate(board.seats[0].sections):
        columns = [(index, row.name) for row in rows if not row.zone]
        if not columns:
            continue
        need = sum(column_width(i, n) for i, n in columns)
        if not groups or room + need > width:
            groups.append([])
            room = used
        groups[-1].extend(columns)
        room += need
    tables = []
    for columns in groups:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=0, show_edge=False)
        table.add_column("", no_wrap=True, style="bold")
        for index, name in columns:  # a long name wraps at its spaces: numbers are narrow
            table.add_column(name, justify="right", overflow="fold",
                             width=column_width(index, name) - 1)
        for part in board.seats:
            style = "bold" if part.seat == board.viewer else None
            table.add_row(part.title, *(cell(part, i, n) for i, n in columns), style=style)
        tables.append(table)
    return tables


def _zone_lines(board: Board, squeeze: str):
    """Each seat's zones: one line per seat and heading (empty zones left out), wrapped --
    or cut to one line for other seats (``squeeze`` "others") or everyone ("all")."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(no_wrap=True, style="cyan")
    grid.add_column(overflow="fold")
    any_row = False
    for part in board.seats:
        title = part.title
        cut = squeeze == "all" or (squeeze == "others" and part.seat != board.viewer)
        for heading, rows in part.sections:
            shown = [r for r in rows if r.zone and r.text != "—"]
            if not shown:
                continue
            text = _named_rows(shown, heading)
            if cut:
                text.no_wrap, text.overflow = True, "ellipsis"
            grid.add_row(title, heading, text)
            title = ""
            any_row = True
    return grid if any_row else None


def _named_rows(rows: list, heading: str):
    """"Name: text · Name: text" (the name left out when it is the heading itself)."""
    from rich.text import Text

    text = Text()
    for i, row in enumerate(rows):
        if i:
            text.append(" · ")
        if row.name != heading or len(rows) > 1:
            text.append(f"{row.name}: ", style="dim")
        text.append(row.text)
    return text


def _shared_lines(board: Board, cut: bool):
    from rich.table import Table

    if not board.shared:
        return None
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold cyan")
    grid.add_column(overflow="fold")
    for heading, rows in board.shared:
        text = _named_rows(rows, heading)
        if cut:
            text.no_wrap, text.overflow = True, "ellipsis"
        grid.add_row(heading, text)
    return grid


def _status_line(board: Board, presentation: Presentation, seat: int, players: int):
    from rich.text import Text

    text = Text()
    text.append(presentation.pack_name, style="bold")
    for row in board.status:
        text.append(f" · {row.name} {row.text}")
    text.append(f"   (you are seat {seat + 1} of {players})", style="dim")
    return text


def _choices(title: str, options: list[str], columns: int):
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 1), pad_edge=True)
    for column in range(columns):
        if column:
            grid.add_column(width=1)  # a gap between the columns of choices
        grid.add_column(justify="right", style="bold", no_wrap=True)
        grid.add_column(overflow="fold", ratio=1)
    rows = (len(options) + columns - 1) // columns
    for r in range(rows):
        cells: list[Any] = []
        for c in range(columns):
            index = c * rows + r
            if c:
                cells.append("")
            if index < len(options):
                cells += [str(index + 1), Text(options[index])]
            else:
                cells += ["", ""]
        grid.add_row(*cells)
    return Text(title, style="bold yellow"), grid


def _lines(console, renderable) -> list:
    """A renderable drawn once, as lines of segments (measured and printed from the same)."""
    return console.render_lines(renderable, console.options, pad=False)


def render_screen(console, presentation: Presentation, view: dict, seat: int, players: int,
                  options: list[str], news: list[str], max_lines: int = SCREEN_LINES) -> int:
    """Print one decision's screen for ``seat`` from its ``view``; returns its line count.

    ``options`` are the readable labels of the seat's choices, ``news`` what it saw happen
    since its last decision. The screen keeps within ``max_lines``: news is cut first (the
    newest kept), then other seats' zones, then everything, to one line per heading (``b``
    shows the whole board); a long list of choices goes into two columns.
    """
    from rich.rule import Rule
    from rich.segment import Segment, Segments
    from rich.text import Text

    board = arrange(view, presentation)
    question = decision_title(view.get("decision", {}).get("kind"))
    choices = _lines(console, Group(*_choices(question, options, 1)))
    fixed = _lines(console, Group(Rule(style="dim"),
                                  _status_line(board, presentation, seat, players),
                                  *_values_tables(board, console.width)))
    for squeeze in ("none", "others", "all"):
        blocks = [b for b in (_zone_lines(board, squeeze), _shared_lines(board, squeeze == "all"))
                  if b is not None]
        middle = _lines(console, Group(*blocks)) if blocks else []
        used = len(fixed) + len(middle) + len(choices) + 1  # + the prompt
        if used > max_lines - 2 and len(options) > 4 and console.width >= 80:
            two = _lines(console, Group(*_choices(question, options, 2)))
            used += len(two) - len(choices)
            choices = two
        room = max_lines - used - (1 if news else 0)
        if not news or room >= min(len(news), 2) or squeeze == "all":
            break
    room = max(1, min(NEWS_LINES, room))
    told = []
    if news:
        shown = news[-room:] if len(news) <= room else news[-(room - 1 or 1):]
        heading = Text("Since your last choice:", style="bold")
        if len(news) > len(shown):
            heading.append(f" ({len(news) - len(shown)} earlier: type l)", style="dim")
        told = _lines(console, Group(heading, *(Text("  " + line) for line in shown)))
    screen = fixed + middle + told + choices
    segments = [segment for line in screen for segment in (*line, Segment.line())]
    console.print(Segments(segments), end="")
    return len(screen) + 1


# ---------------------------------------------------------------------------- the person


@dataclass
class SeatMemory:
    """What one person's seat has seen: (decision index, move in words) for every move, and
    how many of them they have already been shown."""

    moves: list[tuple[int, str]] = field(default_factory=list)
    read: int = 0

    def unread(self) -> list[str]:
        """The moves not shown yet."""
        return [text for _, text in self.moves[self.read:]]


class HumanAgent:
    """A person at a terminal: one screen per decision, one line of input per answer.

    Input comes from ``stream`` (stdin by default) so a game can be scripted; bad input is
    re-asked; ``q`` or end of input raises :class:`HumanQuit`; ``u`` raises
    :class:`UndoRequest` and ``s`` calls ``on_save`` when a session offers them.
    """

    name = "human"
    person = True  # its thinking is not the engine's time (see logs.play_logged_game)

    def __init__(self, stream: IO[str] | None = None, console: Any = None,
                 presentation: Presentation | None = None,
                 on_save: Callable[[str | None], str] | None = None,
                 can_undo: Callable[[int], bool] | None = None):
        from rich.console import Console

        self.stream = stream if stream is not None else sys.stdin
        self.console = console if console is not None else Console()
        self.presentation = presentation
        self.on_save = on_save
        self.can_undo = can_undo
        self.memory: dict[int, SeatMemory] = {}

    def seat_memory(self, seat: int) -> SeatMemory:
        """The moves ``seat`` has seen so far (the session adds to it)."""
        return self.memory.setdefault(seat, SeatMemory())

    def choose(self, state: Any, rng: random.Random) -> int:
        """Show ``state.current_player()``'s screen and ask until a legal choice is given."""
        seat = state.current_player()
        presentation = self.presentation or Presentation(state.game.compiled)
        legal = state.legal_actions()
        labels = [state.action_label(a) for a in legal]
        options = [presentation.readable_label(label) for label in labels]
        memory = self.seat_memory(seat)
        render_screen(self.console, presentation, state.view(seat), seat,
                      state.game.num_players, options, memory.unread())
        memory.read = len(memory.moves)
        while True:
            self.console.print(f"Your choice (1-{len(options)}, h for help): ", end="",
                               style="bold", highlight=False, markup=False)
            line = self.stream.readline()
            if line == "":
                raise HumanQuit()
            answer = self._answer(line.strip(), state, seat, legal, labels, presentation)
            if answer is not None:
                return answer

    def _answer(self, text: str, state: Any, seat: int, legal: list[int], labels: list[str],
                presentation: Presentation) -> int | None:
        from rich.markup import escape

        say = self.console.print
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            say(f"[red]{number} is not one of the choices (1-{len(legal)}).[/red]")
        elif word in ("h", "help") or text == "?":
            say(HELP, highlight=False, markup=False)
        elif word in ("?", "c", "card"):
            self._card_text(rest, state, legal, labels, presentation)
        elif word in ("b", "board"):
            self._whole_board(state.view(seat), presentation)
        elif word in ("l", "log"):
            moves = [text for _, text in self.seat_memory(seat).moves]
            for line in moves or ["(nothing yet)"]:
                say(line, highlight=False, markup=False)
        elif word in ("u", "undo"):
            if self.can_undo is not None and self.can_undo(seat):
                raise UndoRequest()
            say("[red]There is no earlier decision of yours to go back to.[/red]"
                if self.can_undo is not None else "[red]Undo works in rulewright play.[/red]")
        elif word in ("s", "save"):
            if self.on_save is None:
                say("[red]Saving works in rulewright play.[/red]")
            else:
                say(escape(self.on_save(rest or None)), highlight=False)
        elif word in ("q", "quit"):
            raise HumanQuit()
        elif text:
            say(f"[red]'{escape(text)}' is not a choice; type a number from 1 to {len(legal)}, "
                "or h for help.[/red]")
        return None

    def _card_text(self, rest: str, state: Any, legal: list[int], labels: list[str],
                   presentation: Presentation) -> None:
        say = self.console.print
        if rest.isdigit() and 1 <= int(rest) <= len(labels):
            number = int(rest) - 1
            refs = state.option_refs(legal[number]) if hasattr(state, "option_refs") else []
            ids = [r for r in refs if r in presentation.texts] or \
                presentation.references(labels[number])
            if not ids:
                say("That choice names no card, die or space.", highlight=False)
            for entry_id in ids:
                say(presentation.text_of(entry_id), highlight=False, markup=False)
            return
        wanted = rest.lower()
        if wanted:
            for entry_id in presentation.texts:
                if presentation.name(entry_id).lower() == wanted or entry_id == wanted:
                    say(presentation.text_of(entry_id), highlight=False, markup=False)
                    return
        say("Type ? and a choice's number (? 2), or a card's name (? Oracle Bones).",
            highlight=False, markup=False)

    def _whole_board(self, view: dict, presentation: Presentation) -> None:
        """Everything the seat may see, every value and zone of the view, in full."""
        from rich.table import Table

        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for name, value in sorted(view.get("shared", {}).items()):
            table.add_row(presentation.name(name), _full(presentation, value, None))
        for name, value in sorted(view.get("zones", {}).items()):
            table.add_row(presentation.name(name), _full(presentation, value, None))
        for part in view.get("players", []):
            mine = part["seat"] == view.get("you")
            who = "You" if mine else f"Seat {part['seat'] + 1}"
            for name, value in sorted(part.get("values", {}).items()):
                table.add_row(f"{who} {presentation.name(name)}",
                              _full(presentation, value, mine))
            for name, value in sorted(part.get("zones", {}).items()):
                table.add_row(f"{who} {presentation.name(name)}",
                              _full(presentation, value, mine))
        self.console.print(table, highlight=False)


def _full(presentation: Presentation, value: Any, mine: bool | None) -> str:
    """A value or zone of a view, every item listed (``mine``: the seat's own; None: shared)."""
    if isinstance(value, list):
        return ", ".join(presentation.component(v) for v in value) or "—"
    if isinstance(value, dict):
        text, _ = presentation.zone_text(value, mine)
        return text
    return "?" if value == "hidden" else presentation.value_text(value)


# ---------------------------------------------------------------------------- the session


_UNSEEN = re.compile(r"^(.*) made (a|\d+) choices? you cannot see$")


def _unseen_by(text: str) -> tuple[str | None, int]:
    """("Seat 2", 3) for "Seat 2 made 3 choices you cannot see"; (None, 0) otherwise."""
    match = _UNSEEN.match(text)
    if match is None:
        return None, 0
    return match.group(1), 1 if match.group(2) == "a" else int(match.group(2))


class TableSession:
    """One game at the table: people at their seats, agents at the others.

    Keeps the actions so far (the log, which is also the save file), narrates each move to
    every person as their view allows, goes back to a person's previous decision on ``u``
    (replaying the log up to there) and writes the log on ``s``, on quitting and at the end.
    """

    def __init__(self, game: Any, seed: int, agents: list[Any], presentation: Presentation,
                 console: Any, log_path: str | None = None, pack_source: str | None = None,
                 actions: list[int] | None = None):
        from .logs import seat_rng

        self.game = game
        self.seed = seed
        self.agents = agents
        self.presentation = presentation
        self.console = console
        self.log_path = log_path
        self.pack_source = pack_source
        self.people = [s for s, a in enumerate(agents) if isinstance(a, HumanAgent)]
        self.rngs = [seat_rng(seed, seat) for seat in range(game.num_players)]
        prepare_game(game, agents)
        self.actions: list[int] = []
        self.deciders: list[int] = []
        self.state = game.new_game(seed)
        for agent in agents:
            if isinstance(agent, HumanAgent):
                agent.presentation = presentation
                agent.on_save = self.save
                agent.can_undo = self.can_undo
        for action in actions or []:
            self._apply(action)

    # ------------------------------------------------------------------ the log

    def log(self) -> dict:
        """The game so far as a log (replayable; the save file)."""
        from .logs import game_log

        return game_log(self.game, self.seed, self.agents, self.actions, self.state,
                        self.pack_source)

    def save(self, path: str | None = None) -> str:
        """Write the log to ``path`` (default: the session's log file); says where, in words."""
        from .logs import write_log

        target = path or self.log_path
        if not target:
            return "Say where to save: s FILE.json (or start the game with --log FILE.json)."
        try:
            write_log(self.log(), target)
        except OSError as exc:
            return f"Cannot write {target}: {exc.strerror or exc}"
        self.log_path = target
        pack = shlex.quote(self.pack_source) if self.pack_source else "PACK"
        return (f"Saved to {target}; rulewright play {pack} --resume {shlex.quote(target)} "
                "goes on from here.")

    # ------------------------------------------------------------------ playing

    def _apply(self, action: int) -> None:
        seat = self.state.current_player()
        label = self.state.action_label(action)
        before = {p: self.state.view(p) for p in self.people if p != seat}
        self.state.apply(action)
        index = len(self.actions)
        self.actions.append(action)
        self.deciders.append(seat)
        for person in self.people:
            if person == seat:
                text = f"You: {self.presentation.readable_label(label)}"
            else:
                text = move_text(self.presentation, before[person], self.state.view(person),
                                 seat, label, person)
            self._remember(person, index, text)

    def _remember(self, person: int, index: int, text: str) -> None:
        """Add a move to what ``person`` saw; a run of unseen choices by one seat is one line
        ("Seat 2 made 3 choices you cannot see")."""
        memory = self.agents[person].seat_memory(person)
        who, _ = _unseen_by(text)
        if who is not None and len(memory.moves) > memory.read:
            last_who, count = _unseen_by(memory.moves[-1][1])
            if last_who == who:
                memory.moves[-1] = (index, f"{who} made {count + 1} choices you cannot see")
                return
        memory.moves.append((index, text))

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` made a decision before the current one."""
        return seat in self.deciders

    def undo(self, seat: int) -> None:
        """Back to ``seat``'s previous decision: replay the log up to just before it."""
        target = max(i for i, s in enumerate(self.deciders) if s == seat)
        kept = self.actions[:target]
        earlier = [i for i in range(target) if self.deciders[i] == seat]
        self.actions, self.deciders = [], []
        for person in self.people:
            memory = self.agents[person].seat_memory(person)
            memory.moves, memory.read = [], 0
        self.state = self.game.new_game(self.seed)
        for action in kept:
            self._apply(action)
        memory = self.agents[seat].seat_memory(seat)
        last = earlier[-1] if earlier else -1
        memory.read = sum(1 for index, _ in memory.moves if index <= last)
        self.console.print(f"[bold]Back to your decision {len(earlier) + 1}.[/bold]")

    def run(self, time_limit: float | None = None) -> Any:
        """Play to the end; returns the final state. HumanQuit propagates (after saving when
        the session has a log file). ``time_limit``: seconds the engine and the bots may use
        in all (a person's turns do not count). A failure of the engine or a bot, or the time
        limit running out, raises ``logs.GameFailed`` whose log records it (``error``), as
        ``simulate`` records a failed game, so the log replays to the same failure."""
        from .logs import GameFailed, error_text, game_log

        progress = {"seat": None, "during": "agent", "action": None}
        try:
            with GameClock(time_limit) as clock:
                return self._play(clock, progress)
        except (HumanQuit, UndoRequest):
            raise
        except (Exception, TimeLimitExceeded) as exc:  # noqa: BLE001 - becomes the logged error
            actions = list(self.actions)
            timed_out = isinstance(exc, TimeLimitExceeded)
            if progress["during"] == "rules" and not timed_out:
                actions.append(progress["action"])  # the action that failed, as simulate logs it
            log = game_log(self.game, self.seed, self.agents, actions, None, self.pack_source)
            message = (f"TimeLimit: the game took longer than its time limit of {time_limit:g} "
                       "seconds" if timed_out else error_text(exc))
            log["error"] = {"decision": len(self.actions) + 1, "seat": progress["seat"],
                            "during": "time_limit" if timed_out else progress["during"],
                            "message": message}
            raise GameFailed(log, self.state) from None

    def _play(self, clock: GameClock, progress: dict) -> Any:
        while not self.state.is_terminal():
            seat = self.state.current_player()
            progress.update(seat=seat, during="agent")
            try:
                if isinstance(self.agents[seat], HumanAgent):
                    with clock.paused():
                        action = self.agents[seat].choose(self.state, self.rngs[seat])
                else:
                    action = self.agents[seat].choose(self.state, self.rngs[seat])
            except UndoRequest:
                self.undo(seat)
                continue
            except HumanQuit:
                if self.log_path:
                    self.console.print(self.save(), highlight=False)
                raise
            progress.update(during="rules", action=action)
            self._apply(action)
        return self.state
