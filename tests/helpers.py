"""Small helpers shared by tests."""


def past_setup(game):
    """Take the first option of each choice the setup asks for (the players'
    starting settlements), so the game stands at its first turn."""
    while game.state.turn == 0 and not game.over:
        game.play_index(0)
    return game
