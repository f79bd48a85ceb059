"""Desert Home – Immigration: lead figures from the camp across a desert of octagon path
tiles into your refuge, a fan of plywood blades, before your opponent fills theirs."""
