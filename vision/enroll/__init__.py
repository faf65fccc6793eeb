"""Deck enrollment: teach the card reader the casino's own deck at the table, the way a dealer teaches a colleague.

1. Capture (``capture.py``, ``find.py``): photos of the deck face up on any table top; every card is found by the
   card reader's own detector and outline model (``extract.py``'s outline segmentation only without a model), warped
   flat to an upright face (both 180° orientations kept) and given the reading as its proposed identity. Bad photos
   are named and skipped; squashed photos are unsquashed as ``vision read`` unsquashes them.
2. Confirm (``confirm.py``): a plain-Python controller the kiosk drives: faces in a grid sorted by proposed identity,
   fixing one by card, missing cards pointed out, views of each card counted (more views are more examples); then a
   versioned **deck profile** (``profile.py``), partial or whole, under ``<data>/decks/`` (``./data`` unless
   ``DEALER_ASSIST_DATA`` names another folder).
3. Learn (``learn.py``): a background job renders synthetic scenes from the profile's faces with the card reader's
   own generator, adds the captured crops, and fine-tunes the reader's classifier with its own trainer; progress,
   time left, resumable; the old model keeps serving.
4. Verify and activate (``verify.py``, ``registry.py``; which model is active is ``vision.active_model``'s to say):
   a second spread checked against the profile gives each model's per-card accuracy; the new model is activated only
   if it beats the active one; the switch is journaled.

5. Learn from play (``from_play.py``): the rounds dealers confirmed (evidence frame, boxes, confirmed cards, gathered
   from the journal by ``journal.play_examples``) fine-tune the any-deck face and index readers; checked on rounds
   kept out and activated as above (``dealer-assist vision learn-from-play``).

``dealer-assist vision enroll …`` (``cli.py``) runs each step from the command line.
"""
