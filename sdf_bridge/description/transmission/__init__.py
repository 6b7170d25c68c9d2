"""``<transmission>`` elements: the three dialects and the entries of one element."""
