"""Imported once by the job processes' forkserver (see `pnp.studio.jobs`), never by pnp
itself: builds one small kit in memory, so every job process forks with the PDF and SVG
renderers, fonts, text metrics and colour tables already loaded and filled (a preview
after a parameter change then starts warm instead of paying for them every time).

Nothing is written, and a failure here only means colder jobs.
"""

from __future__ import annotations


def warm_up(slug: str = "exploding-dice") -> None:
    from pnp.build import all_components, plan_kits
    from pnp.draw.render.pdf import render_pdf
    from pnp.draw.render.svg import component_svg

    _, plans = plan_kits(slug, None, ["a4"])
    for doc in plans[0].documents:
        render_pdf(doc.pages, doc.title, hairline=doc.hairline, machine_layers=doc.machine_layers)
    for comp in all_components(plans[0].kit):
        component_svg(comp)


try:
    warm_up()
except Exception:  # a game that cannot build its defaults: jobs simply start colder
    pass
