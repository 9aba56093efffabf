"""Reading's reads: the names a mention may link, the private notes."""
