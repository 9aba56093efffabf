"""Reading's writes: a post's mentions and quotes told, the wagon alerts, the private
notes."""
