"""Per-card files made from composed faces: images for print services, screens and virtual tables."""
