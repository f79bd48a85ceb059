"""What a game declares and a designer sets: `GameDef`, parameter schemas, config files, and the
values parameters name (paper sizes, the print palette)."""
