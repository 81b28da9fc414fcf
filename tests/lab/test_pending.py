"""lab/pending.py: how often a pending pile is the only coverable one (HINTS' reason)."""
from lab import pending


def test_a_pending_pile_alone_comes_up_in_games_of_rookies():
    met, times, long = pending.pending_alone(20, 0)
    assert 0 < met <= 20 and times >= met and 0 <= long <= times
