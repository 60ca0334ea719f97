"""Small helpers shared by tests."""


def past_setup(game):
    """Take the first option of each choice the setup asks for (the players'
    starting settlements), so the game stands at its first turn."""
    while game.state.turn == 0 and not game.over:
        game.play_index(0)
    return game


def first_error(path, variant: str, players: int = 2, seed: int = 1):
    """Write a variant to `path`, play it taking each choice's first option,
    and return the error the game stops with (None if it ends)."""
    import nordlang
    from nordlang.errors import NordError
    path.write_text(variant)
    game = nordlang.load(players=players, seed=seed, variants=[str(path)])
    try:
        while not game.over:
            game.play_index(0)
    except NordError as e:
        return e
    return None
