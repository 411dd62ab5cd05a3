"""Pure game rules: board models, courtyards, scores and warnings. No image code here."""
