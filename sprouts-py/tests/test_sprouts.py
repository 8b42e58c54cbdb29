"""The `sprouts` Python module, used as a researcher uses it."""

import json
import pathlib
import threading
import time

import pytest

import sprouts

REPO = pathlib.Path(__file__).resolve().parents[2]
NORMAL = REPO / "sprouts-ai" / "tests" / "data" / "n-spot-normal.tsv"
SAVED_GAME = REPO / "fuzz" / "corpus" / "saved_game_load" / "three_spots_four_moves.json"


def oracle_rows(path):
    """The rows of an oracle table (comments and the header left out)."""
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or line.startswith("n\t") or not line.strip():
            continue
        rows.append(line.split("\t"))
    return rows


# Positions


def test_parse_write_and_canonical_forms():
    p = sprouts.Position("0*8.AB|0*3.AB")
    q = sprouts.Position("0*3.BA|0*8.AB")
    assert p.canonical() == q.canonical()
    assert str(p) == "0*8.AB|0*3.AB"
    assert repr(p) == 'Position("0*8.AB|0*3.AB")'
    assert p.region_count == 2
    assert sprouts.Position("0.0.0") == sprouts.Position("0*3")
    assert hash(sprouts.Position("0.0.0")) == hash(sprouts.Position("0*3"))
    start = sprouts.Position.start(5)
    assert start.glop() == "0*5"
    assert (start.spot_count, start.lives) == (5, 15)
    assert not start.is_over()
    assert sprouts.Position("!").is_over()


def test_spots_letters_are_read_and_written():
    spots = sprouts.Position("0.1a1a.1a2a")
    glop = sprouts.Position("0.1a1a.1b2b")
    assert spots == glop
    assert glop.spots() == "0.1a1a.1a2a"
    assert glop.glop() == "0.1a1a.1b2b"


def test_notation_errors_are_value_errors_with_the_offset():
    with pytest.raises(sprouts.NotationError) as err:
        sprouts.Position("1aaaa")
    assert isinstance(err.value, ValueError)
    assert err.value.offset == 1
    assert "met 4 time(s) in its boundary" in str(err.value)
    with pytest.raises(sprouts.NotationError) as err:
        sprouts.Position("0.1a1a?")
    assert err.value.offset == 6
    with pytest.raises(TypeError):
        sprouts.Solver().outcome(12)


def test_parts_lands_and_children():
    p = sprouts.Position("0*4.A|0*4.A+0*2.AB|AB")
    assert p.lands() == ["0*2.AB|AB", "0*4.A|0*4.A"]
    parts = p.parts()
    assert len(parts) == 2
    assert sorted(part.canonical() for part in parts) == p.lands()
    # The 2-spot start: its distinct children, each a canonical form that is its own form.
    children = sprouts.Position.start(2).children()
    assert len(children) == len(set(children)) > 0
    for c in children:
        assert sprouts.Position(c).canonical() == c


# The solver


def test_outcomes_and_nimbers_of_starts_equal_the_known_values():
    solver = sprouts.Solver()
    for n, outcome, nimber in oracle_rows(NORMAL):
        n = int(n)
        if 1 <= n <= 9:
            assert solver.outcome(sprouts.Position.start(n)) == outcome, n
            assert solver.nimber(f"0*{n}" if n > 1 else "0") == int(nimber), n


def test_couples_and_known_nimbers():
    solver = sprouts.Solver()
    # The 3-spot start has nimber 1: beside a heap of 1 it is lost, beside 0 or 2 won.
    assert solver.couple("0*3", 1) == "L"
    assert solver.couple("0*3", 0) == "W"
    assert solver.couple("0*3", 2) == "W"
    assert solver.known_nimber("0*3") == 1
    assert len(solver) > 0
    assert solver.nodes > 0


def test_a_budget_that_runs_out_gives_none_never_a_guess():
    solver = sprouts.Solver()
    assert solver.outcome("0*9", nodes=5) is None
    assert solver.nimber("0*9", nodes=5) is None
    assert solver.couple("0*9", 1, seconds=0) is None
    with pytest.raises(ValueError):
        solver.outcome("0*3", seconds=-1)
    with pytest.raises(ValueError):
        sprouts.Solver(threads=0)
    # The same solver then answers with no limit.
    assert solver.outcome("0*9") == "W"


def test_searches_release_the_interpreter_lock():
    """A thread keeps counting while another searches: the search does not hold the lock."""
    solver = sprouts.Solver()
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        start = time.monotonic()
        assert solver.outcome(sprouts.Position.start(11)) == "W"
        elapsed = time.monotonic() - start
    finally:
        done.set()
        counter.join()
    during = [t for t in ticks if start < t < start + elapsed]
    assert elapsed > 0.05, "the search was too quick to tell"
    # Held for the whole search, the lock would have let the counter tick once or not at all.
    assert len(during) >= 10, (len(during), elapsed)


# Databases


def test_save_load_and_merge(tmp_path):
    a = sprouts.Solver()
    a.nimber("0*6")
    path = tmp_path / "db.bin"
    a.save(path)
    b = sprouts.Solver()
    entries, new = b.load(path)
    assert entries == new == len(a)
    assert b.known_nimber("0*6") == 0
    c = sprouts.Solver()
    c.merge(a)
    assert len(c) == len(a)
    # Loading a broken file raises and changes nothing.
    path.write_bytes(b"SPROUTDB\x01\x00\x00\x00\xff\xff")
    d = sprouts.Solver()
    with pytest.raises(sprouts.DatabaseError):
        d.load(path)
    assert len(d) == 0
    with pytest.raises(OSError):
        d.load(tmp_path / "missing.bin")


def test_export_and_import_glop_and_spots_text():
    a = sprouts.Solver()
    a.nimber("0*6")
    a.nimber("0*2.1a1a.1b2b")
    glop = a.export_text()
    spots = a.export_text("spots")
    assert glop.startswith("[Positions+Nimber]\n")
    assert "0*2.1a1a.1b2b 2\n" in glop
    assert "0*2.1a1a.1a2a 2\n" in spots
    for text in (glop, spots):
        b = sprouts.Solver()
        assert b.import_text(text) == len(glop.splitlines()) - 1
        assert b.known_nimber("0*6") == 0
        assert b.known_nimber("0*2.1a1a.1b2b") == 2
    with pytest.raises(ValueError):
        a.export_text("csv")
    b = sprouts.Solver()
    b.import_text("[Positions+Nimber]\n0*3 1\n")
    with pytest.raises(sprouts.DatabaseError):
        b.import_text("[Positions+Nimber]\n0*3 0\n")
    with pytest.raises(sprouts.DatabaseError):
        b.import_text("[WinLoss_Misere:Losing_Position]\n0*2\n")
    assert b.known_nimber("0*3") == 1


# Misère play


def test_misere_outcomes_equal_the_known_values():
    misere = sprouts.MisereSolver()
    # OEIS A164950 (the n-spot starts in misère play): W L L L W W for n = 1..6.
    for n, want in zip(range(1, 7), "WLLLWW"):
        assert misere.outcome(sprouts.Position.start(n)) == want, n
    assert sprouts.MisereSolver().outcome("0*9", nodes=1) is None


# Game records


def test_a_saved_game_is_read_and_replayed():
    text = SAVED_GAME.read_text()
    game = sprouts.read_game(text)
    saved = json.loads(text)
    assert game.start == sprouts.Position.start(saved["start"]["spots"])
    assert game.moves == [m["words"] for m in saved["moves"]]
    assert len(game) == len(game.positions) == 4
    # Each position follows from the one before by one move.
    before = game.start
    for after in game.positions:
        assert after.canonical() in before.children()
        before = after
    assert game.position == game.positions[-1]
    with pytest.raises(sprouts.GameRecordError):
        sprouts.read_game("{}")
    with pytest.raises(sprouts.GameRecordError):
        sprouts.read_game(text.replace('"1 -> 3"', '"1 -> 2"'))
