"""The reference card, camera lenses and piece profiles: everything measured once and reused."""
