"""Building Community's speed layer: the compiled proof search and tree-search positions (C),
its interface, the playout glue, and the solver that runs on them."""
