"""Process plumbing every command shares: the one error type and how a command ends, files
written whole, staged outputs, Ctrl-C, one-line notices and progress."""
