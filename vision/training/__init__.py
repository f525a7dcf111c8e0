"""Training-side code: torch and ultralytics live here and nowhere in the serving path."""
