"""The scripted match: a 2-player match played on the desktop twin from a deal's seed, as a
key script with its checkpoints, and the desktop twin's glass on a script; the chip twin, the
page and the bus tests play the same script and compare their glass with it."""
from hardware import pinmap
from twins.desktop.play import MAX_MS


def desktop(seed, keys="direct", nvm=None, hz=None):
    """The desktop twin (twins/desktop) as the chip is built: (the handheld, its App).
    keys: the build (settings.toml's CS_KEYS); nvm: the nvm sector it starts with
    (twins/chip/flash.py saved_settings()); hz: the I2C clock."""
    from firmware.app import App
    from twins.desktop import virtual
    settings = {"CS_I2C_HZ": hz} if hz else {}
    if keys != "direct":
        settings["CS_KEYS"] = keys
    hw = virtual.init(seed=seed, start_ms=virtual.BOOT_TICKS, settings=settings or None)
    if nvm is not None:
        hw.flash.data[:] = nvm  # (as the board was left: read by the App as it starts)
    return hw, App(hw)


TOGETHER = ("column", "apart", "corners")  # keys pressed at one instant (match_script)
# A deal's checkpoint: once the deal is on the glass at the slowest clock (290 ms at 48 MHz),
# before a stall's redeal (stall_ms, 1000 ms after the deal), which the board draws a pile a
# pass, for longer as the clock falls (80 ms at 125 MHz, 170 at 48).
DEAL_SETTLE_MS = 800


def _together(kind, piles, key, name):
    """Keys of coverable piles to press at one instant, or None. kind "column": one of A's
    and one of B's in the same column of the matrix; "apart": one each in two columns;
    "corners": two of A's in one matrix row and one of B's in the column of one of them,
    three corners of a rectangle (the fourth is the key a matrix without diodes would
    also read). A pile is pressed once; the spots are the matrix build's for the keys'
    names, whichever build plays."""
    from hardware.keymap import MATRIX_KEYMAP
    from tools.keynames import key_named
    width = len(str(pinmap.default("CS_MATRIX_COLUMNS")).split(","))

    def spot(player, pile):
        return divmod(key_named(name[key(player, pile)], MATRIX_KEYMAP), width)
    for pa in piles:
        (ra, ca) = spot(0, pa)
        for pb in piles:
            rb, cb = spot(1, pb)
            if pb == pa or kind == "column" and cb != ca or kind == "apart" and cb == ca:
                continue
            if kind != "corners":
                return [key(0, pa), key(1, pb)]
            for pa2 in piles:
                r2, c2 = spot(0, pa2)
                if pa2 not in (pa, pb) and r2 == ra and c2 > ca and cb in (ca, c2):
                    return [key(0, pa), key(0, pa2), key(1, pb)]
    return None


def match_script(seed, covers=20, gap=450, limit_ms=90000, keys="direct", nvm=None,
                 together=0):
    """A 2-player match through the menus, played on the desktop twin with the deal of
    seed: at least `covers` covers, a foul, a collision, a stall and the end of a game
    (and the next deal), and `together` moments when the players press at one instant
    (TOGETHER's kinds in turn, each a cover of every key's pile), or limit_ms. keys, nvm:
    the desktop's build and its saved settings (desktop()). Returns (script text,
    checkpoints in ms, counts of each press result; with each cover's time in "cover_at"
    and its pile's pixels in "cover_box", "piles" a row, and "together": (ms, kind, key
    names) of each moment)."""
    import engine
    from engine import game as game_mod
    from hardware.keymap import pile_of, player_of, role_of
    from hardware.seats import KEYS_A_ROW
    from tools.keynames import name_of
    hw, app = desktop(seed, keys, nvm)
    name = {k: name_of(k, hw.keymap) for k in range(len(hw.keymap))}
    start = {v: k for k, v in name.items()}["A3"]  # RIGHT on 2 PLAYERS; any key: next deal
    counts = {"covered": 0, "foul": 0, "collision": 0, "stall": 0, "games": 0,
              "cover_at": [], "cover_box": [], "piles": 0, "together": []}
    lines, checks = [], []
    press = game_mod.Game.press
    results = {engine.COVERED: "covered", engine.FOUL: "foul", engine.COLLISION: "collision"}

    def counted(self, player, pile, now):
        r = press(self, player, pile, now)
        if r in results:
            counts[results[r]] += 1
        if r == engine.COVERED:
            counts["cover_at"].append(pressed[-1])
            counts["cover_box"].append(cell_box(app.table, pile))
        return r

    def run_to(ms):
        while hw.elapsed < ms:
            before = app.match.game.phase
            app.step()
            if app.match.game.phase == engine.STALL and before != engine.STALL:
                counts["stall"] += 1

    def key(player, pile):
        n = app.match.game.rules.piles_per_row
        for k in range(len(hw.keymap)):
            r = role_of(k, hw.keymap)
            if player_of(r) == player and pile_of(r, n, KEYS_A_ROW[keys != "direct"]) == pile:
                return k
        raise AssertionError("no key for player %d pile %d" % (player, pile))

    pressed = [0]

    def tap(t, *keys, settle=300):
        pressed.append(t)
        for k in keys:
            hw.buttons.tap(k, hw.ms(t), 80)
            lines.append("%d %s tap 80" % (t, name[k]))
        checks.append(t + settle)

    def at_once(t, piles):
        """TOGETHER's next kind, if the table offers it now (else a later moment will)."""
        kind = TOGETHER[len(counts["together"]) % len(TOGETHER)]
        chosen = _together(kind, piles, key, name)
        if chosen:
            tap(t, *chosen)
            counts["together"].append((t, kind, [name[k] for k in chosen]))
            return True
        return False

    game_mod.Game.press = counted
    try:
        t = 400
        tap(t, start, settle=DEAL_SETTLE_MS)
        run_to(t + 1200)
        t += 1200
        counts["piles"] = app.match.game.rules.piles_per_row
        player = 0
        while t < limit_ms:
            g = app.match.game
            done = (counts["covered"] >= covers and counts["foul"] and counts["collision"]
                    and counts["stall"] and counts["games"]
                    and len(counts["together"]) >= together)
            if done or g.phase == engine.MATCH_OVER:
                break
            if g.phase == engine.GAME_OVER:  # any key deals the next game
                counts["games"] += 1
                t += 1500
                run_to(t)
                tap(t, start, settle=DEAL_SETTLE_MS)
                run_to(t + 1200)
                t += 1200
                continue
            if g.phase == engine.PLAY:
                n = g.rules.piles_per_row
                piles = [p for p in range(2 * n) if g.coverable(p)]
                now = hw.ms(t)
                free = not g.locked(0, now) and not g.locked(1, now)
                if not counts["foul"] and counts["covered"] >= 3:
                    idle = [p for p in range(2 * n) if not g.coverable(p)]
                    if idle and not g.locked(0, now):
                        tap(t, key(0, idle[0]))
                elif piles and not counts["collision"] and counts["covered"] >= 6:
                    # B presses the pile A covers 40 ms after A: too late on both twins (a
                    # press at the same instant is a coin toss, and the chip's scanner may
                    # stamp two GPIO edges a scan apart)
                    tap(t, key(0, piles[0]))
                    run_to(t + 40)
                    tap(t + 40, key(1, piles[0]))
                elif len(counts["together"]) < together and free and at_once(t, piles):
                    pass
                elif piles:
                    if g.locked(player, now):
                        player = 1 - player
                    tap(t, key(player, piles[0]))
                    player = 1 - player
                else:
                    checks.append(t + 300)
            run_to(t + gap)
            t += gap
    finally:
        game_mod.Game.press = press
    checks.append(t + 300)
    return "\n".join(lines) + "\n", checks, counts


def desktop_run(script, seed, checkpoints, hz=None, keys="direct", nvm=None):
    """The desktop twin on the same script: (its glass at each checkpoint, in ms since the
    app started; the I2C bytes it sent after its first frame, up to the last). keys, nvm:
    its build and saved settings (desktop())."""
    from tools.keynames import name_of
    from twins.desktop.keypad import load_script
    hw, app = desktop(seed, keys, nvm, hz)
    names = {name_of(k, hw.keymap): k for k in range(len(hw.keymap))}
    hw.buttons.schedule(load_script(script, names, MAX_MS, len(names)), offset_ms=hw.ms(0))
    app.step()
    first = hw.bus.bytes_sent
    frames = []
    for ms in checkpoints:
        while hw.elapsed < ms:
            app.step()
        frames.append(hw.oled.frame())
    return frames, hw.bus.bytes_sent - first


def cell_box(table, pile):
    """The pixels (x0, y0, x1, y1) a pile's card is drawn in, from the table's layout."""
    from firmware import glyphs
    c = table.cells[pile]
    return (min(c.rank.x, c.suit.x), min(c.rank.y, c.suit.y),
            max(c.rank.x + glyphs.RANK_W, c.suit.x + glyphs.SUIT_W),
            max(c.rank.y + glyphs.RANK_H, c.suit.y + glyphs.SUIT_H))
