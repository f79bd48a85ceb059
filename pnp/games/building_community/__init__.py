"""Building Community: a cooperative game of swapping hex tiles until none is isolated."""
