"""pnp studio: a local web page on which a designer edits a kit, sees it, checks it and
plays it (`pnp studio`). The page calls a small JSON API (`pnp.studio.app`) whose routes
run the command line's own functions in job processes (`pnp.studio.jobs`)."""
