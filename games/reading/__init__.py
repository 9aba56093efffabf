"""Reading: what each member has read, notifications (mentions, quotes, wagon alerts),
the "since you last read" page, the daily digest, and private notes on players.

Mentions are linked in a post's body before it is stored (POST_BODY), its readers told
(POST_CREATED), wagon alerts follow a vote (INPUT_APPLIED).
"""
