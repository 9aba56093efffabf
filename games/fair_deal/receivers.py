"""The fair deal listens to the start: it seals the deal as it is dealt, and the start post
publishes the seal."""

from games import queue

from .services import deal_seal, sealed_start_words


def seal(*, game, setup, **_):
    deal_seal(game, setup)


def start_post_sealed(post, *, game, rows, **_):
    if game.deal_commitment:
        post.words = sealed_start_words(game, rows, post.words)
    return post


def connect():
    queue.connect(queue.GAME_DEALT, seal)
    queue.connect(queue.START_POST, start_post_sealed)
