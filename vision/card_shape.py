"""The shape of a playing card, shared by the reader (its outline and index patches) and the scene generator (the
faces it draws), so that the reading path needs nothing of scene generation."""

FACE_SIZE = (250, 350)  # width, height in pixels: the 5:7 shape of a poker card
CARD_ASPECT = FACE_SIZE[1] / FACE_SIZE[0]  # height over width
