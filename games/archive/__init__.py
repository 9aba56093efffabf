"""The archive: finished games, players' profiles, the reveal and the game logs (the
home of a future game viewer).
"""
