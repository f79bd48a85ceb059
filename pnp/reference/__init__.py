"""Reference data: conformance records and golden files, what a change is held to."""
