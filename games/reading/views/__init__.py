"""Reading's pages: the private notes."""
