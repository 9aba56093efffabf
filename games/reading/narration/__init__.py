"""Reading's words: the notifications' sentences."""
