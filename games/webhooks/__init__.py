"""Chat webhooks: a game announces its story (story.py) to the destinations its moderator
adds."""
