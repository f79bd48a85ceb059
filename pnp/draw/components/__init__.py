"""General components that many games reuse: sticker blocks, paper dice, and the like."""
