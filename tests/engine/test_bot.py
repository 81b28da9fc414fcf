"""The computer player: legal calls only, reproducible, stronger levels win, sensible plays."""
from engine import Game, Rules, A, B, DRAW, COVERED, FOUL, GAME_OVER
from engine.bot import Bot, LEVELS, play_out
from enginetest import stacked, state, raises


class WatchedGame(Game):
    """A Game that checks every press: anything but a cover must leave the table as it was
    (a foul counts one foul more)."""

    def press(self, player, pile, now):
        fouls = self.fouls
        before = state(self)
        r = Game.press(self, player, pile, now)
        self.calls += 1
        self.fouled += r == FOUL
        if r == FOUL:
            assert self.fouls == fouls + 1
            self.fouls = fouls
        if r != COVERED:
            assert state(self) == before, "press %d %d -> %d changed the game" % (player, pile, r)
        self.fouls += r == FOUL
        return r


def _bots(seed, la, lb, cls=Game, **rules):
    g = cls(Rules(wins_needed=1, **rules), seed)
    g.calls = 0
    g.fouled = 0
    g.start(0)
    return g, Bot(g, A, la, 2 * seed + 1), Bot(g, B, lb, 2 * seed + 2)


def test_bots_make_only_calls_that_change_nothing_unless_they_cover():
    fouled = 0
    for seed in range(4):
        g, a, b = _bots(seed, seed % 5, (seed + 2) % 5, WatchedGame)
        assert play_out(g, a, b) >= 0
        assert g.phase >= GAME_OVER and g.calls == a.presses + b.presses > 20
        fouled += g.fouled
    assert fouled > 0  # the bots foul now and then, as people do


def test_the_same_seeds_give_the_same_match():
    runs = []
    for _ in range(2):
        g, a, b = _bots(7, 2, 3)
        end = play_out(g, a, b)
        runs.append((end, state(g), a.presses, b.presses))
    assert runs[0] == runs[1]


def test_stronger_levels_beat_weaker_ones():
    wins = 0
    for seed in range(30):
        g, a, b = _bots(100 + seed, 4, 0)  # LIGHTNING (A) against ROOKIE (B)
        play_out(g, a, b)
        wins += g.game_result == A
    assert wins >= 27, wins
    wins = 0
    for seed in range(30):
        g, a, b = _bots(200 + seed, 1, 3)  # CASUAL (A) against SHARP (B)
        play_out(g, a, b)
        wins += g.game_result == B
    assert wins >= 24, wins


def test_a_bot_waits_its_reaction_time_before_pressing():
    name, mean, spread, miss, foul = LEVELS[2]
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    bot = Bot(g, B, 2, seed=3)
    for t in range(0, mean - spread, 10):
        assert bot.update(t) == -1
    assert bot.wake_at >= mean - spread


def test_a_bot_covers_in_the_opponents_row_first():
    for seed in range(20):
        g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")  # piles 0 and 4 match
        bot = Bot(g, B, 4, seed=seed)
        assert bot.update(0) == -1  # the first look: the bot plans its reaction
        if bot._aim < 0 or bot.wake_at > 5000:
            continue  # this look ends in a foul or a miss
        r = bot.update(bot.wake_at)
        assert r == COVERED and g.deck_size(B) == 1
        assert g.top(0) != 0 * 13 + 4, "B covered its own row first"
        return
    raise AssertionError("no seed gave a plain look")


def test_a_bot_finishes_a_pending_match_quickly():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c")
    bot = Bot(g, B, 2, seed=1)
    g.press(A, 0, 1000)  # A covers pile 0: pile 4 is pending
    assert g.pending(4)
    t = 1000
    while bot.update(t) == -1 and t < 20000:
        t += 10
    assert g.top(4) != 13 + 4 and g.deck_size(B) == 1  # B covered the pending 5d
    assert t - 1000 < LEVELS[2][1] + LEVELS[2][2] + 2 * LEVELS[2][1]


def test_bots_do_nothing_outside_play():
    g = Game(Rules(), 1)
    bot = Bot(g, A, 1)
    assert bot.update(100) == -1 and bot.wake_at == -1


def test_bad_levels_and_seats_are_refused():
    g = Game(Rules(), 1)
    assert str(raises(ValueError, Bot, g, A, 5)).startswith("level")
    assert str(raises(ValueError, Bot, g, A, "QUICK")).startswith("level")
    assert str(raises(ValueError, Bot, g, 2, 1)).startswith("player")


def test_five_named_levels_from_slow_to_fast():
    assert len(LEVELS) == 5
    means = [lv[1] for lv in LEVELS]
    assert means == sorted(means, reverse=True)


def test_a_time_handicap_slows_a_bot_down_without_making_it_press_blindly():
    wins = 0
    for seed in range(30):
        g, a, b = _bots(400 + seed, 3, 3, handicap_ms=300)  # SHARP against SHARP, A held
        assert play_out(g, a, b) >= 0
        wins += g.game_result == B
        assert a.presses < 2 * (a.presses + b.presses) // 3  # (no press after press)
        verdicts = 0
        while g.judged() >= 0:
            verdicts += 1
        assert verdicts > 0
    assert wins >= 27, wins


def test_a_held_bot_presses_the_partner_of_its_match_at_hand_speed():
    g = stacked("5c 9d Jh 2s 7c 8c", "5d Kc 3h 8s 4c 6c", handicap_ms=400)
    bot = Bot(g, A, 3, seed=1)
    t = 0
    while bot.presses == 0 and t < 5000:
        t += 1
        bot.update(t)
    first = t
    while bot.presses == 1 and t < first + 400:
        t += 1
        bot.update(t)
    assert bot.presses == 2 and t - first < 400  # before its first cover has landed
    g.tick(t + 400)
    assert g.deck_size(A) == 0


def test_bots_that_mean_to_foul_when_every_pile_can_be_covered_cover_instead():
    """A bot that has decided to foul finds no pile to foul on when every pile can be
    covered: it covers then, rather than wait for a change that two such bots never make
    (this six-a-row game of two LIGHTNING bots stood still for good before)."""
    seed = 266622
    g = Game(Rules(piles_per_row=6), seed)
    g.start(0)
    a, b = Bot(g, 0, 4, 2 * seed + 1), Bot(g, 1, 4, 2 * seed + 2)
    assert play_out(g, a, b, 1800000) > 0
    assert g.phase == GAME_OVER and g.game_result in (A, B, DRAW)
