"""The kiosk: round controllers that wire camera, devices, engines and journal together, and the Kivy UI.

- ``kiosk.controller``: one plain-Python controller per game (``baibuu``, ``samloc``, ``schmier``): commands in,
  a frozen view out; every action goes through the engine and into the journal before the screen shows it.
- ``kiosk.adapters``: the serial devices (``hardware``) and the camera (``vision``) as the controllers need them.
- ``kiosk.runtime``: the config file, the journal, the devices, the camera and the controllers, wired; ``tick()``.
- ``kiosk.ui``: the Kivy app (status bar, table screens, camera, set-up, supervisor, dialogs); it renders only.
- ``kiosk.demo``: the simulated croupier of the embedded default; ``kiosk.testing``: the app under a script.
- ``kiosk.i18n``: every text, English and Vietnamese; ``kiosk.config``: the validated YAML config.
"""
