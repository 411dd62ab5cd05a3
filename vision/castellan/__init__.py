"""Reading a Castellan castle from a photo: carve pieces, find towers, walls and keeps, rebuild."""
