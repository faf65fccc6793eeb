"""Seeded synthetic card-table scenes for training and testing the card reader (faces, scenes, YOLO labels)."""
