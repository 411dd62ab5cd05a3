"""Reading Catan photos: the board by its blue sea frame, the hex lattice, terrain, the robber."""
