"""The kiosk: round controllers that wire camera, devices, engines and journal together, and the Kivy UI."""
