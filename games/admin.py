# Game models are registered here once they exist.
