"""Renderers: PDF (reportlab), SVG (svgwrite), PNG (cairosvg, from the SVG), DXF (ezdxf)."""
