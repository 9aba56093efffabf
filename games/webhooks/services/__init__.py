"""The webhooks' writes: destinations (endpoints.py), the deliveries written with the
game's own write (deliveries.py), and their sending (send.py, over net.py)."""
