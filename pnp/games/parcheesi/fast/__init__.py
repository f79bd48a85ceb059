"""Parcheesi's speed layer: the compiled kernel (C), its interface and the glue that attaches it
to the readable rules (`rules/`) through `pnp.play.fastpath`."""
