"""Home in One Piece: two players race play-dough blobs home and join them into one."""
