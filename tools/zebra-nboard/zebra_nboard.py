#!/usr/bin/env python3
"""An NBoard (protocol 2) front end for a line-based Othello search driver, written for Zebra.

Zebra has no NBoard mode. A small C driver linked with Zebra's objects (built by hand outside
this repository, see README.md) answers one search per line; this script speaks NBoard to a GUI
or to `othello play` and turns each `go` into one driver query.

Driver protocol (one line each way):
    new                                   -> ok            (a new game: the driver clears its hash)
    BOARD64 SIDE MIDDEPTH EXACTDEPTH      -> MOVE SCORE NODES KIND
BOARD64 lists a1..h8 row by row with X (black), O (white), - (empty); SIDE is X or O; MOVE is a
square such as f5; SCORE is in discs for the side to move; KIND is mid, exact, wld, sel, forced
(a single legal move played without search: no score) or pass; `error TEXT` reports bad input.

NBoard commands handled: nboard, set depth, set game, set contempt (ignored), move, go, hint,
ping, learn, quit; other lines are ignored. `set depth N` sets the midgame depth and, unless
--exact is given, the exact-solve depth too (solve from N empties). A side without a legal move
answers `=== PA` without asking the driver.

Standard library only.
"""

import argparse
import subprocess
import sys
import time

EMPTY, BLACK, WHITE = "-", "X", "O"
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
START_BOARD = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27


class GameError(Exception):
    """A GGF record or a move that cannot be replayed."""


def opponent(side):
    return WHITE if side == BLACK else BLACK


def flips(board, side, square):
    """The squares `side` flips by playing at `square` (an index 0..63); empty if illegal."""
    if board[square] != EMPTY:
        return []
    row, col = divmod(square, 8)
    other = opponent(side)
    out = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        line = []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == side:
            out.extend(line)
    return out


def legal_moves(board, side):
    """The legal squares of `side`, in index order (a1, b1, ..., h8)."""
    return [sq for sq in range(64) if flips(board, side, sq)]


def square_name(square):
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def parse_square(text):
    """`F5`/`f5` -> 37; `PA` (any case) -> None (a pass). Raises GameError on anything else."""
    t = text.strip().lower()
    if t == "pa":
        return None
    if len(t) != 2 or t[0] not in "abcdefgh" or t[1] not in "12345678":
        raise GameError(f"bad move {text!r}")
    return (int(t[1]) - 1) * 8 + "abcdefgh".index(t[0])


class Position:
    """A board (64 characters X/O/-) and the side to move."""

    def __init__(self, board=START_BOARD, side=BLACK):
        self.board = list(board)
        self.side = side

    def copy(self):
        return Position("".join(self.board), self.side)

    def key(self):
        return "".join(self.board) + " " + self.side

    def must_pass(self):
        return not legal_moves(self.board, self.side)

    def play(self, square):
        """Plays a square (or a pass when `square` is None) for the side to move."""
        if square is None:
            if not self.must_pass():
                raise GameError(f"{self.side} passes with a legal move")
            self.side = opponent(self.side)
            return
        flipped = flips(self.board, self.side, square)
        if not flipped:
            raise GameError(f"illegal move {square_name(square)} for {self.side}")
        for sq in flipped + [square]:
            self.board[sq] = self.side
        self.side = opponent(self.side)

    def play_for(self, color, square):
        """Plays for `color`, first passing for the side to move when it must and the record
        left that pass out (as servers and our own GGF reader allow)."""
        if color != self.side:
            if square is None:
                raise GameError(f"{color} passes out of turn")
            if not self.must_pass():
                raise GameError(f"{color} moves out of turn")
            self.side = opponent(self.side)
        self.play(square)


def ggf_tags(text):
    """The (tag, value) pairs of a GGF record, in order: `B[F5/1.5]` -> ("B", "F5/1.5")."""
    out = []
    rest = text
    while True:
        open_at = rest.find("[")
        if open_at < 0:
            break
        close_at = rest.find("]", open_at)
        if close_at < 0:
            raise GameError("unclosed '[' in GGF")
        key = ""
        i = open_at - 1
        while i >= 0 and rest[i].isalpha():
            key = rest[i] + key
            i -= 1
        out.append((key, rest[open_at + 1 : close_at]))
        rest = rest[close_at + 1 :]
    return out


def parse_ggf(text):
    """The start position and the moves (color, square or None) of a GGF record, replayed.

    Returns (start, moves, position). Raises GameError on a bad board or an illegal move."""
    start = None
    pos = None
    moves = []
    for key, value in ggf_tags(text):
        if key == "BO":
            parts = value.split()
            if len(parts) != 3:
                raise GameError(f"bad BO[{value}]")
            size, board, side = parts
            if size != "8" or len(board) != 64:
                raise GameError(f"only 8x8 boards are supported, not BO[{value}]")
            cells = []
            for c in board:
                if c in "*Xx#":
                    cells.append(BLACK)
                elif c in "Oo0":
                    cells.append(WHITE)
                elif c in "-.":
                    cells.append(EMPTY)
                else:
                    raise GameError(f"bad square {c!r} in BO[]")
            if side in ("*", "X", "x", "B"):
                side = BLACK
            elif side in ("O", "o", "W"):
                side = WHITE
            else:
                raise GameError(f"bad side to move {side!r} in BO[]")
            start = Position("".join(cells), side)
            pos = start.copy()
        elif key in ("B", "W"):
            if pos is None:
                raise GameError("a move before the board BO[]")
            color = BLACK if key == "B" else WHITE
            square = parse_square(value.split("/")[0])
            pos.play_for(color, square)
            moves.append((color, square))
    if pos is None:
        raise GameError("GGF without a board BO[]")
    return start, moves, pos


class Driver:
    """The search driver process."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the driver exited (status {self.proc.poll()})")
        answer = answer.strip()
        if answer.startswith("error"):
            raise RuntimeError(f"the driver refused {line!r}: {answer}")
        return answer

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class Session:
    def __init__(self, driver, out, depth, exact):
        self.driver = driver
        self.out = out
        self.depth = depth
        self.exact = exact
        self.start = Position()
        self.moves = []
        self.pos = Position()
        # The game the driver's hash table belongs to: (start key, moves).
        self.driver_game = None

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def exact_depth(self):
        return self.depth if self.exact is None else self.exact

    def sync_game(self):
        """Tells the driver that a new game started unless this one continues the last."""
        key = self.start.key()
        last = self.driver_game
        if last is None or last[0] != key or self.moves[: len(last[1])] != last[1]:
            self.driver.ask("new")
        self.driver_game = (key, list(self.moves))

    def search(self):
        """(move text, score or None, nodes, exact, seconds) for the current position."""
        t0 = time.monotonic()
        if self.pos.must_pass():
            return "PA", None, 0, False, time.monotonic() - t0
        self.sync_game()
        query = f"{''.join(self.pos.board)} {self.pos.side} {self.depth} {self.exact_depth()}"
        fields = self.driver.ask(query).split()
        if len(fields) != 4:
            raise RuntimeError(f"bad driver answer {' '.join(fields)!r}")
        move, score, nodes, kind = fields
        try:
            square = parse_square(move)
            value = None if kind in ("forced", "pass", "other") else float(score)
            count = int(float(nodes))
        except (GameError, ValueError):
            raise RuntimeError(f"bad driver answer {' '.join(fields)!r}") from None
        if square is None or square not in legal_moves(self.pos.board, self.pos.side):
            raise RuntimeError(f"the driver answered an illegal move {move}")
        return move.upper(), value, count, kind == "exact", time.monotonic() - t0

    def handle(self, line):
        """Handles one line; False after `quit`."""
        words = line.split()
        if not words:
            return True
        cmd = words[0]
        if cmd == "nboard":
            self.say("set myname Zebra")
        elif cmd == "set" and len(words) >= 2:
            if words[1] == "depth" and len(words) >= 3:
                try:
                    d = int(words[2])
                except ValueError:
                    print(f"zebra_nboard: bad depth {words[2]!r}", file=sys.stderr)
                else:
                    if d >= 1:
                        self.depth = min(d, 60)
            elif words[1] == "game":
                text = line.split("game", 1)[1].strip()
                try:
                    self.start, self.moves, self.pos = parse_ggf(text)
                except GameError as e:
                    print(f"zebra_nboard: bad game: {e}", file=sys.stderr)
        elif cmd == "move" and len(words) >= 2:
            try:
                square = parse_square(words[1].split("/")[0])
                color = self.pos.side
                if square is not None and self.pos.must_pass():
                    color = opponent(color)
                self.pos.play_for(color, square)
                self.moves.append((color, square))
            except GameError as e:
                print(f"zebra_nboard: {e}", file=sys.stderr)
        elif cmd == "go":
            self.say("status thinking")
            move, value, nodes, _, secs = self.search()
            self.say(f"nodestats {nodes} {secs:.3f}")
            eval_text = "" if value is None else f"{value:.2f}"
            self.say(f"=== {move}/{eval_text}/{secs:.3f}")
            self.say("status")
        elif cmd == "hint":
            self.say("status thinking")
            move, value, nodes, exact, secs = self.search()
            depth = "100%" if exact else str(self.depth)
            self.say(f"search {move} {0.0 if value is None else value:.2f} 0 {depth}")
            self.say(f"nodestats {nodes} {secs:.3f}")
            self.say("status")
        elif cmd == "ping":
            self.say(f"pong {words[1] if len(words) > 1 else 0}")
        elif cmd == "learn":
            self.say("learned")
        elif cmd == "quit":
            return False
        return True


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="NBoard front end for a line-based search driver (see README.md).",
    )
    parser.add_argument(
        "--depth", type=int, default=8, help="midgame depth until `set depth` (default 8)"
    )
    parser.add_argument(
        "--exact",
        type=int,
        default=None,
        help="solve exactly from this many empties (default: the midgame depth)",
    )
    parser.add_argument(
        "driver", nargs=argparse.REMAINDER, help="the driver command and its arguments"
    )
    args = parser.parse_args(argv)
    if not args.driver:
        parser.error("no driver command given")
    if args.depth < 1 or (args.exact is not None and not 0 <= args.exact <= 60):
        parser.error("--depth must be at least 1 and --exact within 0..60")
    try:
        driver = Driver(args.driver)
    except OSError as e:
        print(f"zebra_nboard: cannot start the driver {args.driver[0]}: {e}", file=sys.stderr)
        return 2
    session = Session(driver, sys.stdout, min(args.depth, 60), args.exact)
    try:
        for line in sys.stdin:
            if not session.handle(line.strip()):
                break
    except (RuntimeError, BrokenPipeError, OSError) as e:
        print(f"zebra_nboard: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
