"""HOW TO PLAY in English: four lines of 21 characters a page, each under its picture
(firmware/howto.py PICTURES). docs/RULES.md says the same ("How the handheld teaches
it")."""
PAGES = (
    ("EACH PLAYER GETS HALF", "THE DECK AND LAYS 4", "CARDS FACE UP. EMPTY",
     "YOUR DECK FIRST: WIN!"),
    ("TWO PILES THE SAME", "RANK, IN EITHER ROW?", "PRESS ONE: YOUR TOP",
     "CARD GOES ON IT."),
    ("THE OTHER 5 CAN STILL", "BE COVERED: COVER IT", "TOO IF YOU ARE QUICK.",
     "FIRST PRESS WINS IT."),
    ("NOTHING TO COVER?", "PLAY STOPS: NO MATCH.", "A PRESS ON A PILE YOU",
     "CAN'T COVER: FOUL!"),
    ("THEN EACH PLAYER PUTS", "THEIR OWN ROW UNDER", "THEIR DECK, AND NEW",
     "PILES ARE DEALT."),
    ("AFTER A FOUL YOUR", "KEYS ARE LOCKED FOR", "A MOMENT: A PRESS", "THEN SAYS LOCKED."),
    ("BEATEN TO A PILE?", "YOUR LINE: TOO LATE.", "SAME INSTANT? A COIN",
     "DECIDES: LOST TOSS."),
)
