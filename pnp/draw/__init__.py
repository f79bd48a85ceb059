"""Drawing: the renderer-neutral scene and everything that turns a kit into pages and files
(layout, renderers, cards, components, checks)."""
