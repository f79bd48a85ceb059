"""The play core: the game-state API, forward play, chance, the tree search, the choice of
compiled kernels, outcome records, and the C headers every kernel includes."""
